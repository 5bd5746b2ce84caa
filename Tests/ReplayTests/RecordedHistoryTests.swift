import ComposableCore
import JSON
import Replay
import Testing
import Wire

/// A counter whose history the tests write by hand, as the daemon records it.
struct Tally: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
  }
  enum Action: Codable, Equatable, Sendable {
    case add(Int)
    case roll
  }
  @Dependency(\.randomNumbers) var random

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.count += amount
    case .roll: state.count = random.int(in: 1...6)
    }
    return .none
  }
}

/// One `tcactl log --json` line, as the daemon's log entry prints it.
func logLine(_ version: UInt64, _ action: JSONValue, count: Int, inputs: JSONValue? = nil) -> String {
  let entry = LogEntry(
    version: version, time: 1_000 + Int64(version), origin: .object(["client": .string("t")]), action: action,
    inputs: inputs, summary: "",
    patch: .array([.object(["op": .string("replace"), "path": .string("/count"), "value": .int(count)])]))
  return CanonicalJSON.text(entry.json)
}

@Suite struct RecordedHistoryTests {
  static let log =
    [
      logLine(1, .object(["add": .int(2)]), count: 2),
      logLine(2, .string("roll"), count: 5, inputs: .object(["random": .array([.int(5)])])),
      logLine(3, .object(["add": .int(1)]), count: 6),
    ].joined(separator: "\n") + "\n"

  static let replay = JournalReplay(reducer: Tally(), initialState: Tally.State())

  @Test func aLogIsReplayedWithItsRecordedDraws() throws {
    let history = try RecordedHistory(log: Self.log)
    #expect(history.base == nil && history.baseVersion == 0 && history.lastVersion == 3)
    let report = try Self.replay.verify(history)
    #expect(report.reproduced && report.versions == 1...3)
  }

  @Test func aLogThatDoesNotReadSaysWhere() {
    let cases: [(String, String)] = [
      ("{\"version\":1", "line 1 of the log is not JSON: "),
      ("[]", #"line 1 of the log is not a record of `tcactl log --json`: expected an object with "version""#),
      (
        logLine(1, .string("roll"), count: 1) + "\n" + logLine(3, .string("roll"), count: 1),
        "line 2 of the log is version 3, but the line before it is 1"
      ),
      (
        logLine(4, .string("roll"), count: 1),
        "the log starts at version 4, after the initial state: give the state at version 3 as its base (`tcactl get --at 3 --json` prints it)"
      ),
    ]
    for (text, message) in cases {
      #expect {
        try RecordedHistory(log: text)
      } throws: { error in
        "\(error)".contains(message)
      }
    }
  }

  @Test func aLogAfterABaseStartsFromIt() throws {
    let history = try RecordedHistory(
      log: logLine(8, .object(["add": .int(1)]), count: 41), base: .object(["count": .int(40)]))
    #expect(history.baseVersion == 7)
    #expect(try Self.replay.verify(history).reproduced)
    let wrong = try RecordedHistory(
      log: logLine(8, .object(["add": .int(1)]), count: 41), base: .object(["count": .int(30)]))
    let report = try Self.replay.verify(wrong)
    #expect(report.divergenceCount == 1)
    #expect(report.divergences.first?.replayedState == Tally.State(count: 31))
  }

  @Test func whatIfSaysWhatItCannotDo() throws {
    let history = try RecordedHistory(log: Self.log)
    #expect(throws: ReplayError.invalidRequest("version 4 is not in the history, which holds versions 1 through 3")) {
      try Self.replay.whatIf(history, at: 3, .remove(version: 4))
    }
    #expect(
      throws: ReplayError.invalidRequest(
        "the state at version 1 cannot show version 2 changed: give a version from 2 through 3")
    ) {
      try Self.replay.whatIf(history, at: 1, .remove(version: 2))
    }
    let outcome = try Self.replay.whatIf(history, at: 3, .replace(version: 1, action: .object(["add": .int(10)])))
    #expect(outcome.recorded == .object(["count": .int(6)]))
    #expect(outcome.edited == .object(["count": .int(6)]), "the roll sets the count: the edit is lost by version 2")
    let early = try Self.replay.whatIf(history, at: 1, .replace(version: 1, action: .object(["add": .int(10)])))
    #expect(early.edited == .object(["count": .int(10)]))
    #expect(throws: ReplayError.self) {
      try Self.replay.whatIf(history, at: 3, .replace(version: 1, action: .string("explode")))
    }
  }

  @Test func aHistoryOfANewerSchemaIsRefused() throws {
    var history = try RecordedHistory(log: Self.log)
    history.baseSchema = 2
    history.base = .object(["count": .int(0)])
    #expect(
      throws: ReplayError.unusableBase(
        "the history is in schema 2, newer than this build's schema 1: replay it with that build or a newer one")
    ) {
      try Self.replay.verify(history)
    }
  }
}
