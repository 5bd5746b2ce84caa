import Foundation
import Glibc

/// A `tcactl` that runs until the test is done (`watch`, `log --follow`),
/// its standard output going to a file the test reads as it grows.
final class BackgroundTcactl {
  let process = Process()
  let outputPath: String

  /// Where its standard error goes, when the test reads it too.
  let errorPath: String?

  /// Starts `tcactl --socket socket arguments…`, colours off, writing to
  /// `outputPath` (and its standard error to `errorPath`, if given).
  init(_ arguments: [String], socket: String, outputPath: String, errorPath: String? = nil) throws {
    self.outputPath = outputPath
    self.errorPath = errorPath
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    if let errorPath {
      _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
      process.standardError = FileHandle(forWritingAtPath: errorPath)
    }
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

  /// The complete lines written to standard error so far (with `errorPath`).
  var errorLines: [String] {
    let text = errorPath.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
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
