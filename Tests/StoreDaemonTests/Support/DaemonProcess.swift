import ComposableCore
import Foundation
import Glibc
import JSON
import Platform
import Testing
import Wire

/// A real `storedaemon` process for a test: its own socket and state directory
/// in a fresh temporary directory, stopped (and killed if need be) when the
/// test is done.
final class DaemonProcess {
  let directory: String
  let socketPath: String
  let stateDirectory: String
  let process = Process()
  /// Whom the test's clients accept as the daemon: the test's own user, or
  /// the `user` the daemon was started as.
  let daemonUser: DaemonUser

  /// The directory holding the built products (`storedaemon`, `tcactl`).
  static var productsDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }

  /// A new daemon (`executable`, among the built products) with
  /// `arguments`; `environment` is added to the test's
  /// own, and `journalStream` sets `JOURNAL_STREAM` to its standard error
  /// file, as systemd does when standard error is the journal. With `user`,
  /// the daemon runs as that uid (and gid), given its directory, by
  /// `setpriv`: the test must run as root. With `processLimit`, it starts
  /// with that `RLIMIT_NPROC` (set by `prlimit`).
  convenience init(
    executable: String = "storedaemon", arguments: [String] = [], environment: [String: String] = [:],
    journalStream: Bool = false, user: uid_t? = nil, processLimit: Int? = nil
  ) throws {
    try self.init(
      directory: Self.temporaryDirectory(), executable: executable, arguments: arguments, ownsDirectory: true,
      environment: environment, journalStream: journalStream, user: user, processLimit: processLimit)
  }

  /// A new daemon on the socket and state directory of `previous`, which must
  /// have stopped (as after `kill -9`); the directory then belongs to this one.
  /// The directory passes to the new daemon once it serves; one that fails to
  /// start leaves it with `previous`, for the test to inspect.
  convenience init(
    reusing previous: DaemonProcess, executable: String = "storedaemon", arguments: [String] = [],
    environment: [String: String] = [:]
  ) throws {
    try self.init(
      directory: previous.directory, executable: executable, arguments: arguments, ownsDirectory: false,
      environment: environment)
    previous.ownsDirectory = false
    ownsDirectory = true
  }

  /// A new daemon on a copy of the state directory `fixture` (its files
  /// and directories, copied into a fresh temporary directory); `executable`
  /// names the daemon among the built products (a hosted app's).
  convenience init(copyingState fixture: String, executable: String = "storedaemon", arguments: [String] = []) throws {
    let directory = try Self.temporaryDirectory()
    try FileManager.default.copyItem(atPath: fixture, toPath: directory + "/state")
    try self.init(directory: directory, executable: executable, arguments: arguments, ownsDirectory: true)
  }

  private var ownsDirectory: Bool

  private init(
    directory: String, executable: String = "storedaemon", arguments: [String], ownsDirectory: Bool = true,
    environment: [String: String] = [:], journalStream: Bool = false, user: uid_t? = nil, processLimit: Int? = nil
  ) throws {
    self.directory = directory
    self.ownsDirectory = ownsDirectory
    socketPath = directory + "/run/storedaemon.sock"
    stateDirectory = directory + "/state"
    daemonUser = user.flatMap { DaemonUser(user: "\($0)") } ?? .standard
    let daemon = Self.productsDirectory.appendingPathComponent(executable)
    process.executableURL = daemon
    process.arguments = ["--socket", socketPath, "--state-dir", stateDirectory] + arguments
    if let user {
      chown(directory, user, user)
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", daemon.path] + process.arguments!
    }
    if let processLimit {
      process.arguments = ["--nproc=\(processLimit):\(processLimit)", process.executableURL!.path] + process.arguments!
      process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
    }
    // A file, not a pipe: a pipe nobody drains would stall a chatty daemon.
    _ = FileManager.default.createFile(atPath: directory + "/stderr.log", contents: nil)
    process.standardError = FileHandle(forWritingAtPath: directory + "/stderr.log")
    var combined = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    if journalStream {
      var info = stat()
      stat(directory + "/stderr.log", &info)
      combined["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
    }
    process.environment = combined
    try process.run()
    try waitUntilServing()
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
  }

  /// Sends SIGTERM and returns the exit status.
  @discardableResult
  func stop() -> Int32 {
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    return process.terminationStatus
  }

  var pid: pid_t { process.processIdentifier }

  /// Each effect worker's status (`kind`, `state`, `pid`, `restarts`, …), by kind.
  func workers() throws -> [String: JSONObject] {
    let client = try self.client("status")
    defer { client.close() }
    guard case .object(let report) = try client.status(), case .array(let workers)? = report["workers"] else {
      throw DaemonTestError("status has no workers")
    }
    var byKind: [String: JSONObject] = [:]
    for case .object(let worker) in workers {
      if case .string(let kind)? = worker["kind"] { byKind[kind] = worker }
    }
    return byKind
  }

  /// Waits until every worker is running, and returns their pids by kind.
  @discardableResult
  func waitForWorkers(timeout: Duration = eventTimeout) throws -> [String: pid_t] {
    var last: [String: JSONObject] = [:]
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      last = try workers()
      let pids = last.compactMapValues { worker -> pid_t? in
        guard worker["state"] == .string("running"), case .int(let pid)? = worker["pid"] else { return nil }
        return pid_t(pid)
      }
      if pids.count == 3 { return pids }
      usleep(20_000)
    }
    throw DaemonTestError("the workers are not all running after \(timeout): \(last)\n\(standardError)")
  }

  /// What the daemon has written to standard error.
  var standardError: String {
    (try? String(contentsOfFile: directory + "/stderr.log", encoding: .utf8)) ?? ""
  }

  private func waitUntilServing() throws {
    let deadline = ContinuousClock.now + eventTimeout
    while ContinuousClock.now < deadline {
      if let client = try? WireClient(path: socketPath, clientName: "probe", daemonUser: daemonUser) {
        client.close()
        return
      }
      guard process.isRunning else {
        throw DaemonTestError("storedaemon exited with status \(process.terminationStatus): \(standardError)")
      }
      usleep(20_000)
    }
    throw DaemonTestError("storedaemon did not start serving \(socketPath) within \(eventTimeout)")
  }

  private static func temporaryDirectory() throws -> String {
    var template = Array("/tmp/sd-test-XXXXXX".utf8CString)
    guard let path = mkdtemp(&template) else { throw DaemonTestError("mkdtemp failed: errno \(errno)") }
    return String(cString: path)
  }
}

struct DaemonTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs `tcactl` with `arguments` against `socketPath`, `environment` added
/// to the test's own; returns its exit status, standard output and standard
/// error.
func tcactl(
  _ arguments: [String], socket: String, environment added: [String: String] = [:]
) throws -> (status: Int32, output: String, error: String) {
  try runProduct("tcactl", ["--socket", socket] + arguments, environment: added.merging(["NO_COLOR": "1"]) { $1 })
}

/// Runs the built product `name` with `arguments`, `environment` added to
/// the test's own, to its end; returns its exit status, standard output and
/// standard error.
func runProduct(
  _ name: String, _ arguments: [String], environment added: [String: String] = [:]
) throws -> (status: Int32, output: String, error: String) {
  let process = Process()
  process.executableURL = DaemonProcess.productsDirectory.appendingPathComponent(name)
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self)
  )
}

/// Reads messages until `predicate` accepts one, failing after `limit` messages.
func nextMessage(from client: WireClient, limit: Int = 10_000, where predicate: (ServerMessage) -> Bool) throws
  -> ServerMessage
{
  for _ in 0..<limit {
    let message = try client.nextMessage()
    if predicate(message) { return message }
  }
  throw DaemonTestError("no matching message within \(limit) messages")
}

/// How long a test waits for something it is sure to see (a daemon serving,
/// an effect settling, a worker restarting, a connection going away): long
/// enough for a machine kept busy by other work, so that reaching it means
/// the event is not coming, not that the machine was slow.
let eventTimeout: Duration = .seconds(60)

/// Polls `condition` until it holds, failing with `what` after `timeout`.
func waitUntil(
  _ what: @autoclosure () -> String, timeout: Duration = eventTimeout, _ condition: () throws -> Bool
) throws {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try condition() { return }
    usleep(10_000)
  }
  throw DaemonTestError("timed out after \(timeout) waiting until \(what())")
}

/// Waits until the daemon `client` is connected to has no effect in flight:
/// every effect started so far has answered (or failed) and its action has
/// been reduced. A barrier after which an effect that should not have run
/// (a debounce that was not cancelled, a late answer) has certainly shown.
func waitUntilNoEffectsInFlight(_ client: WireClient) throws {
  try waitUntil("no effect is in flight") { try client.status()[path: "effectsInFlight"] == .int(0) }
}

/// Whether `pid` is gone: no such process, or a zombie nobody reaped yet.
func processIsGone(_ pid: pid_t) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
  // The state follows the parenthesised command name: "pid (comm) S ...".
  guard let close = stat.lastIndex(of: ")") else { return false }
  let state = stat[stat.index(after: close)...].dropFirst().first
  return state == "Z" || state == "X"
}

/// The parent pid of `pid`, from /proc.
func parentPID(of pid: pid_t) -> pid_t? {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return nil }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  return fields.count > 1 ? pid_t(fields[1]) : nil
}

extension JSONValue {
  /// The member at a JSON Pointer–like path of keys, for test assertions.
  subscript(path keys: String...) -> JSONValue? {
    var value: JSONValue? = self
    for key in keys {
      guard case .object(let members)? = value else { return nil }
      value = members[key]
    }
    return value
  }
}
