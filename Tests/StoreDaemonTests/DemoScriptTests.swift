import Foundation
import Glibc
import Testing

/// `scripts/demo.sh`, the README's quick start, run with the programs this
/// test build made: it finishes, fits in a screen or two, and shows the
/// daemon starting its workers, actions with what they changed, a roll landed
/// by the timer worker, and the log.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DemoScriptTests {
  @Test func theDemoIsShortAndShowsEachPart() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var template = Array("/tmp/sd-demo-test-XXXXXX".utf8CString)
    let directory = String(cString: try #require(mkdtemp(&template)))
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let outputPath = directory + "/demo.out"
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [root.appendingPathComponent("scripts/demo.sh").path]
    var environment = ProcessInfo.processInfo.environment
    environment["DEMO_BIN"] = DaemonProcess.productsDirectory.path
    process.environment = environment
    let output = try #require(FileHandle(forWritingAtPath: outputPath))
    process.standardOutput = output
    process.standardError = output
    try process.run()
    process.waitUntilExit()
    let text = try String(contentsOfFile: outputPath, encoding: .utf8)
    #expect(process.terminationStatus == 0, "\(text)")

    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count <= 80, "the demo prints \(lines.count) lines:\n\(text)")
    #expect(lines.allSatisfy { $0.count <= 160 }, "a line runs long:\n\(text)")
    // The daemon and its three workers, running.
    for kind in ["timer", "network", "storage"] {
      #expect(
        lines.contains { $0.hasPrefix("  \(kind) ") && $0.contains(" running ") }, "\(kind) is not running:\n\(text)")
    }
    // Actions with their changes, old → new.
    #expect(lines.contains("    ~ /counter/count: 0 → 1"))
    #expect(lines.contains("    ~ /cart/totalPrice: 0 → 55.99"))
    // The roll, landed by the timer worker and shown by send --wait.
    #expect(lines.contains { $0.hasPrefix("v5  dice.internal.rollCompleted ") })
    #expect(lines.contains("    ~ /dice/isRolling: true → false"))
    // The log, linking the effect's actions to the action they followed from.
    #expect(lines.contains { $0.hasPrefix("v5  ") && $0.contains("  effect of #3  dice.internal.rollCompleted ") })
    // Each change is printed once, not again by a background watcher.
    #expect(lines.filter { $0 == "    ~ /counter/count: 0 → 1" }.count == 1)
  }
}
