import Foundation

/// Prometheus' `promtool` (Debian's `prometheus` package, which .ci/run
/// installs), for tests that check a metrics page as Prometheus reads it.
public enum Promtool {
  /// Where Debian installs it.
  public static let executable = "/usr/bin/promtool"

  /// `promtool check metrics` on `text`: its exit status and what it said.
  public static func checkMetrics(_ text: String) throws -> (status: Int32, output: String) {
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw PrometheusServerError(
        description: "\(executable) is missing: install Debian's prometheus package (.ci/run does)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["check", "metrics"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
