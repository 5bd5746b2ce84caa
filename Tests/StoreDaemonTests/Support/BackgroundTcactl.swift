import Foundation
import Glibc

/// A `tcactl` that runs until the test is done (`watch`, `log --follow`),
/// its standard output going to a file the test reads as it grows.
final class BackgroundTcactl {
  let process = Process()
  let outputPath: String

  /// Starts `tcactl --socket socket arguments…`, colours off, writing to
  /// `outputPath`.
  init(_ arguments: [String], socket: String, outputPath: String) throws {
    self.outputPath = outputPath
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    process.executableURL = DaemonProcess.productsDirectory.appendingPathComponent("tcactl")
    process.arguments = ["--socket", socket] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    try process.run()
  }

  deinit {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// The complete lines written so far.
  var lines: [String] {
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// Waits (up to `waitUntil`'s timeout) until a line satisfies `predicate`; returns every
  /// line written by then.
  @discardableResult
  func waitForLine(_ what: String, where predicate: (String) -> Bool) throws -> [String] {
    var seen: [String] = []
    try waitUntil("tcactl \(process.arguments?.dropFirst(2).joined(separator: " ") ?? "") prints \(what)") {
      seen = lines
      return seen.contains(where: predicate)
    }
    return seen
  }
}
