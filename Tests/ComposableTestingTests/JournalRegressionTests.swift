import ComposableCore
import ComposableTesting
import Foundation
import JSON
import Testing

/// A counter that a recorded log replays through.
struct Counter: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
  }
  enum Action: Codable, Equatable, Sendable {
    case increment
  }
  /// How much an increment adds: 1, or a changed rule.
  var step = 1

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += step
    return .none
  }
}

/// The journal as a regression test: a log `tcactl log --json` printed must
/// replay exactly, else the test fails with the TestStore's diff.
@Suite struct JournalRegressionTests {
  static func logFile() throws -> String {
    let lines = (1...3).map { version in
      #"{"action":"increment","origin":{"client":"t"},"patch":[{"op":"replace","path":"/count","value":"#
        + "\(version)" + #"}],"summary":"increment","time":1,"version":"# + "\(version)}"
    }
    let path = NSTemporaryDirectory() + "regression-\(UUID().uuidString).jsonl"
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aLogTheReducersReproducePasses() throws {
    let file = try Self.logFile()
    defer { try? FileManager.default.removeItem(atPath: file) }
    assertReplays(logFile: file, reducer: Counter(), initialState: Counter.State())
  }

  @Test func aChangedRuleFailsWithTheDiffAtTheFirstVersion() throws {
    let file = try Self.logFile()
    defer { try? FileManager.default.removeItem(atPath: file) }
    withKnownIssue {
      assertReplays(logFile: file, reducer: Counter(step: 2), initialState: Counter.State())
    } matching: { issue in
      mentions(
        #"Version 1, "increment", does not replay as recorded."#, "State after it: (− recorded, + replayed)",
        "−   count: 1", "+   count: 2", "2 later version(s) diverge too.")(issue)
    }
  }

  @Test func aLogThatCannotBeReadFails() {
    withKnownIssue {
      assertReplays(logFile: "/nonexistent/log.jsonl", reducer: Counter(), initialState: Counter.State())
    } matching: { issue in
      mentions("Cannot read the log /nonexistent/log.jsonl")(issue)
    }
  }
}
