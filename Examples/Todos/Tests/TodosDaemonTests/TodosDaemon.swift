import Foundation
import JSON
import Testing

/// A `todosd` process on a state directory and socket of its own, with its
/// output in a file, and `tcactl` pointed at it. The programs are the ones
/// this package built: `todosd`, storedaemon's workers and `tcactl`, side by
/// side in the products directory.
final class TodosDaemon {
  /// Where `swift build` put the programs: the test bundle's directory.
  static let products: URL = {
    let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
    return (bundle?.bundleURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).deletingLastPathComponent()
  }()
  /// The Python export worker, from this package's sources.
  static let exportWorker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Workers/todos-export").path

  let directory: URL
  var socket: String { directory.appendingPathComponent("todosd.sock").path }
  var stateDirectory: String { directory.appendingPathComponent("state").path }
  var log: URL { directory.appendingPathComponent("todosd.log") }
  private var process: Process?

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("todosd-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit {
    if let process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    try? FileManager.default.removeItem(at: directory)
  }

  /// Starts the daemon and waits until it answers `status`.
  func start() throws {
    let process = Process()
    process.executableURL = Self.products.appendingPathComponent("todosd")
    process.arguments = [
      "--socket", socket, "--state-dir", stateDirectory, "--worker", "export=\(Self.exportWorker)",
      // A stopped worker is not killed for its missed pings while a test holds it.
      "--worker-timeout", "600",
    ]
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let output = try FileHandle(forWritingTo: log)
    output.seekToEndOfFile()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    self.process = process
    try waitUntil("todosd serves (its log: \(log.path))") { try self.tcactl(["status"]).status == 0 }
  }

  /// Stops the daemon with SIGTERM and waits for it; returns its exit status.
  @discardableResult
  func stop() -> Int32 {
    guard let process else { return -1 }
    process.terminate()
    process.waitUntilExit()
    self.process = nil
    return process.terminationStatus
  }

  /// Runs `tcactl --socket S ARGUMENTS`; its status and output.
  func tcactl(_ arguments: [String]) throws -> (status: Int32, output: String) {
    try run("tcactl", ["--socket", socket] + arguments)
  }

  /// Runs the built product `name` with `arguments` to its end: its exit
  /// status, and its standard output and error together.
  func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = Self.products.appendingPathComponent(name)
    process.arguments = arguments
    let file = directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8)).out")
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    let output = try FileHandle(forWritingTo: file)
    process.standardOutput = output
    process.standardError = output
    try process.run()
    process.waitUntilExit()
    try output.close()
    defer { try? FileManager.default.removeItem(at: file) }
    return (process.terminationStatus, try String(contentsOf: file, encoding: .utf8))
  }

  /// `tcactl send PATH ARGUMENTS`, which must be accepted.
  func send(_ path: String, _ arguments: String..., wait: Bool = false) throws {
    let result = try tcactl(["send", path] + arguments + (wait ? ["--wait"] : []))
    #expect(result.status == 0, "send \(path) \(arguments): \(result.output)")
  }

  /// The state, or the part at `path`, as JSON.
  func state(_ path: String? = nil, at version: Int? = nil) throws -> JSONValue {
    let result = try tcactl(["get", "--json"] + (path.map { [$0] } ?? []) + (version.map { ["--at", "\($0)"] } ?? []))
    try #require(result.status == 0, "get \(path ?? ""): \(result.output)")
    return try JSONParser.parse(Array(result.output.utf8))
  }

  /// `status --json`.
  func status() throws -> JSONValue {
    let result = try tcactl(["status", "--json"])
    try #require(result.status == 0, "status: \(result.output)")
    return try JSONParser.parse(Array(result.output.utf8))
  }

  /// The export worker's row of `status`.
  func exportWorker() throws -> JSONValue? {
    guard case .array(let workers)? = try status()[path: "workers"] else { return nil }
    return workers.first { $0[path: "kind"] == .string("export") }
  }
}

/// Waits for `condition`, checking it every 20 ms, for up to two minutes: a
/// busy machine may be slow, and the test waits for the event itself.
func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
  let deadline = Date().addingTimeInterval(120)
  while try !condition() {
    guard Date() < deadline else { throw WaitTimedOut(what: what) }
    usleep(20_000)
  }
}

struct WaitTimedOut: Error, CustomStringConvertible {
  let what: String
  var description: String { "waited two minutes for: \(what)" }
}

extension JSONValue {
  /// The member at a path of keys, for assertions.
  subscript(path keys: String...) -> JSONValue? {
    var value: JSONValue? = self
    for key in keys {
      guard case .object(let members)? = value else { return nil }
      value = members[key]
    }
    return value
  }
}
