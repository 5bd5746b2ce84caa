import Foundation
import Glibc

/// The `JournalTestChild` executable, run as a separate process.
final class ChildProcess {
  let process = Process()
  private let output = Pipe()

  /// The directory holding the built products (this test bundle's directory).
  static var productsDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }

  /// Starts `JournalTestChild` with `arguments`.
  init(_ arguments: [String]) throws {
    process.executableURL = Self.productsDirectory.appendingPathComponent("JournalTestChild")
    process.arguments = arguments
    process.standardOutput = output
    try process.run()
  }

  deinit {
    if process.isRunning {
      Glibc.kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Kills the process with SIGKILL and waits for it.
  func kill() {
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Waits for the process to exit and returns its standard output's lines.
  func finish() -> (status: Int32, lines: [String]) {
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    return (process.terminationStatus, text.split(separator: "\n").map(String.init))
  }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass.
func waitUntil(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if try condition() { return true }
    usleep(20_000)
  }
  return try condition()
}
