import ComposableCore
import Foundation
import Glibc
import JSON
import TestSupport
import Testing
import Wire

/// How the real `tcactl` shows changes against a real daemon: one form for
/// `watch`, `log` and `send --wait` (`~ PATH: OLD → NEW`, the old value
/// exact), and one rule that cuts long values, which `--full` and `--json`
/// leave whole (docs/CLI.md, "How changes are shown").
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct TcactlChangesTests {
  @Test func logShowsTheValueEachChangeReplaced() throws {
    let daemon = try LoopDaemon()
    for _ in 1...3 {
      #expect(try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath).status == 0)
    }
    let log = try tcactl(["log"], socket: daemon.socketPath)
    #expect(log.status == 0, "\(log.error)")
    #expect(
      changeLines(log.output) == [
        "~ /counter/count: 0 → 1", "~ /counter/count: 1 → 2", "~ /counter/count: 2 → 3",
      ])
    // Starting in the middle: the state before the first record shown comes from the journal.
    let tail = try tcactl(["log", "-n", "1"], socket: daemon.socketPath)
    #expect(changeLines(tail.output) == ["~ /counter/count: 2 → 3"])
    let since = try tcactl(["log", "--since", "1"], socket: daemon.socketPath)
    #expect(changeLines(since.output) == ["~ /counter/count: 1 → 2", "~ /counter/count: 2 → 3"])
  }

  @Test func logFollowShowsOldAndNewForNewActionsToo() throws {
    let daemon = try LoopDaemon()
    _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath)
    let follower = try BackgroundTcactl(
      ["log", "-f"], socket: daemon.socketPath, outputPath: daemon.directory + "/log.out")
    try follower.waitForLine("the first record") { $0 == "    ~ /counter/count: 0 → 1" }
    _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath)
    _ = try tcactl(["send", "cart.addItem", "3"], socket: daemon.socketPath)
    _ = try tcactl(["send", "cart.removeItem", "3"], socket: daemon.socketPath)
    let lines = try follower.waitForLine("the removal") { $0.hasPrefix("    - /cart/items/0: ") }
    #expect(lines.contains("    ~ /counter/count: 1 → 2"))
    // A removal shows what it removed, cut like any value.
    let removal = try #require(lines.first { $0.hasPrefix("    - /cart/items/0: ") })
    #expect(removal.hasPrefix(#"    - /cart/items/0: {"product":{"#))
    #expect(removal.hasSuffix("…") && removal.count == "    - /cart/items/0: ".count + 60)
  }

  @Test func sendWaitShowsOldAndNewOfEveryChangeTheRollMade() throws {
    let daemon = try DaemonProcess()
    try daemon.waitForWorkers()
    let counter = try tcactl(["send", "counter.incrementButtonTapped", "--wait"], socket: daemon.socketPath)
    #expect(
      counter.output == """
        accepted: version 1; settled at version 1
        v1  counter.incrementButtonTapped
            ~ /counter/count: 0 → 1

        """)
    let roll = try tcactl(["send", "dice.view.rollButtonTapped", "--wait"], socket: daemon.socketPath)
    #expect(roll.status == 0, "\(roll.error)")
    let lines = roll.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "accepted: version 2; settled at version 4")
    #expect(lines.contains("v2  dice.view.rollButtonTapped"))
    #expect(lines.contains("    ~ /dice/isRolling: false → true"))
    #expect(lines.contains("v3  dice.internal.startAnimation"))
    #expect(lines.contains("    ~ /dice/rollAnimationAngle: 0 → 360"))
    #expect(lines.contains { $0.hasPrefix("v4  dice.internal.rollCompleted ") })
    #expect(lines.contains("    ~ /dice/isRolling: true → false"))
  }

  /// A 20-product catalog arriving is one short line wherever it shows, and
  /// watch, log and send --wait write the very same change lines.
  @Test func longValuesAreCutTheSameWayEverywhere() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments)
    try daemon.waitForWorkers()
    let watcher = try BackgroundTcactl(
      ["watch"], socket: daemon.socketPath, outputPath: daemon.directory + "/watch.out")
    try watcher.waitForLine("the state") { $0 == "}" }
    let sent = try tcactl(["send", "products.fetchProducts", "--wait"], socket: daemon.socketPath)
    #expect(sent.status == 0, "\(sent.error)")
    #expect(sent.output.hasPrefix("accepted: version 1; settled at version 2\n"))
    let log = try tcactl(["log"], socket: daemon.socketPath)
    let sentChanges = changeLines(sent.output)
    // Each line is its own write: wait for the last of the watcher's.
    try waitUntil("the watcher prints every change of the products' arrival") {
      changeLines(watcher.lines.joined(separator: "\n")).count >= sentChanges.count
    }

    let response = try #require(sent.output.split(separator: "\n").first { $0.hasPrefix("v2  ") })
    #expect(response.hasPrefix(#"v2  products.productsResponse '[{"category":"#) && response.hasSuffix("…"))
    #expect(response.count == "v2  ".count + cutWidth)
    for output in [sent.output, log.output, watcher.lines.joined(separator: "\n")] {
      for line in changeLines(output) {
        #expect(values(of: line).allSatisfy { $0.count <= cutWidth }, "a value is not cut: \(line)")
      }
    }
    #expect(!sentChanges.isEmpty)
    #expect(changeLines(log.output) == sentChanges)
    #expect(changeLines(watcher.lines.joined(separator: "\n")) == sentChanges)

    // --full: every value whole, the action as the log's JSON has it.
    let json = try tcactl(["log", "--json"], socket: daemon.socketPath)
    let records = json.output.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
    let summary = try #require(records.last?[path: "summary"])
    guard case .string(let wholeAction) = summary else {
      Issue.record("no summary in \(json.output)")
      return
    }
    #expect(wholeAction.count > 1000)
    let full = try tcactl(["log", "--full"], socket: daemon.socketPath)
    #expect(full.output.contains("  " + wholeAction + "\n"))
    #expect(changeLines(full.output).contains { values(of: $0).contains { $0.count > 1000 } })
  }

  @Test func watchResumingShowsOldValuesFromTheJournal() throws {
    let daemon = try LoopDaemon()
    for _ in 1...2 { _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath) }
    let watcher = try BackgroundTcactl(
      ["watch", "counter", "--since", "1"], socket: daemon.socketPath, outputPath: daemon.directory + "/watch.out")
    let lines = try watcher.waitForLine("the missed change") { $0.hasPrefix("    ~ /count") }
    #expect(lines.last == "    ~ /count: 1 → 2")
  }
}

/// The width `tcactl` cuts values at (docs/CLI.md).
let cutWidth = 60

/// The values a change line shows: `NEW`, `OLD` or `OLD` and `NEW` after
/// `SIGN PATH: `.
func values(of line: String) -> [String] {
  guard let colon = line.range(of: ": ") else { return [] }
  let rest = String(line[colon.upperBound...])
  return line.hasPrefix("~") ? rest.components(separatedBy: " → ") : [rest]
}

/// The change lines (`+`, `-`, `~`, `>`) of `output`, unindented.
func changeLines(_ output: String) -> [String] {
  output.split(separator: "\n").compactMap { line in
    let change = line.dropFirst(4)
    guard line.hasPrefix("    "), let sign = change.first, "+-~>=".contains(sign), change.dropFirst().first == " "
    else {
      return nil
    }
    return String(change)
  }
}
