import ComposableCore
import Features
import Foundation
import JSON
import Replay
import Testing
import Wire

/// `NAME verify` and the replay behind it: a journal the daemon recorded is
/// reproduced by the same reducers (each action with the dates, UUIDs and
/// random numbers it drew), beside the live daemon; a changed rule is found
/// and named (docs/OPERATIONS.md, "Upgrade").
@Suite(.serialized, .timeLimit(.minutes(5))) struct VerifyTests {
  /// The seed apps with rolls that land at once and no network.
  static let arguments = [
    "--dice-roll", "0", "--store-api", "http://127.0.0.1:9", "--numbers-api", "http://127.0.0.1:9",
  ]

  /// A patch of one replace, as the journal holds it.
  static func replace(_ path: String, _ value: JSONValue) -> JSONValue {
    .array([.object(["op": .string("replace"), "path": .string(path), "value": value])])
  }

  /// A daemon that rolled dice (random numbers), saved a BMI record (a UUID
  /// and a date) and counted: every kind of recorded input.
  static func recordedDaemon() throws -> DaemonProcess {
    let daemon = try DaemonProcess(arguments: arguments)
    let client = try daemon.client()
    _ = try client.send(path: "counter.incrementButtonTapped")
    for _ in 1...3 { _ = try client.sendAndWait(path: "dice.view.rollButtonTapped", timeout: eventTimeout) }
    _ = try client.send(path: "bmi.input.binding.height", arguments: ["180"])
    _ = try client.send(path: "bmi.input.binding.weight", arguments: ["75"])
    _ = try client.sendAndWait(path: "bmi.input.saveButtonTapped", timeout: eventTimeout)
    _ = try client.send(path: "counter.incrementButtonTapped")
    let inputs = try client.log(since: nil, last: nil).records.compactMap(\.inputs)
    #expect(inputs.contains { $0[path: "random"] != nil } && inputs.contains { $0[path: "uuid"] != nil })
    return daemon
  }

  @Test func theJournalIsReproducedBesideTheLiveDaemon() throws {
    let daemon = try Self.recordedDaemon()
    let last = try daemon.client().get().version
    let verify = try runProduct("storedaemon", ["verify", "--state-dir", daemon.stateDirectory] + Self.arguments)
    #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    #expect(
      verify.output.contains("storedaemon 0.2.0: every version reproduced: versions 1…\(last) of "),
      "\(verify.output)")
    // The daemon went on undisturbed.
    #expect(try daemon.client().send(path: "counter.incrementButtonTapped") == last + 1)
  }

  /// A directory that holds no journal (a mistyped path) is an error, not
  /// "nothing to replay"; so is one that does not exist.
  @Test func aDirectoryWithoutAJournalIsRefused() throws {
    let directory = NSTemporaryDirectory() + "no-journal-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for path in [directory, directory + "/missing"] {
      let verify = try runProduct("storedaemon", ["verify", "--state-dir", path])
      #expect(verify.status == 65, "\(verify.output)\(verify.error)")
      #expect(verify.error.contains("give the daemon's state directory (--state-dir)"), "\(verify.error)")
    }
  }

  /// The counter adds two where it added one: each increment diverges, and
  /// the first is named with both patches.
  @Test func aChangedRuleIsFoundAndNamed() throws {
    struct CountsTwice: Reducer {
      var body: some ReducerOf<Self> {
        AppFeature()
        Reduce { state, action in
          if case .counter(.incrementButtonTapped) = action { state.counter.count += 1 }
          return .none
        }
      }
      typealias State = AppFeature.State
      typealias Action = AppFeature.Action
    }
    let daemon = try Self.recordedDaemon()
    let history = try RecordedHistory(stateDirectory: daemon.stateDirectory)
    var dependencies = DependencyValues()
    dependencies.configuration.diceRollMilliseconds = 0

    let unchanged = JournalReplay(reducer: AppFeature(), initialState: AppFeature.State(), dependencies: dependencies)
    let same = try unchanged.verify(history)
    #expect(same.reproduced, "\(same.divergences.map(\.version))")
    #expect(same.versions == 1...history.lastVersion)

    let changed = JournalReplay(reducer: CountsTwice(), initialState: AppFeature.State(), dependencies: dependencies)
    let report = try changed.verify(history)
    #expect(report.divergenceCount == 2)
    let first = try #require(report.divergences.first)
    #expect(first.version == 1)
    #expect(first.action == .object(["counter": .string("incrementButtonTapped")]))
    #expect(first.recordedPatch == Self.replace("/counter/count", .int(1)))
    #expect(first.replayedPatch == Self.replace("/counter/count", .int(2)))
    #expect(first.recordedState?.counter.count == 1 && first.replayedState.counter.count == 2)
    // After a divergence the replay goes on from the recorded state: the
    // second increment diverges by one again, not by two.
    let second = try #require(report.divergences.last)
    #expect(second.recordedPatch == Self.replace("/counter/count", .int(2)))
    #expect(second.replayedPatch == Self.replace("/counter/count", .int(3)))
  }

  /// Another draw than recorded would change the rolls: the recorded ones
  /// are what the replay gives the reducer.
  @Test func aReplayDrawsWhatWasRecorded() throws {
    let daemon = try Self.recordedDaemon()
    let history = try RecordedHistory(stateDirectory: daemon.stateDirectory)
    var dependencies = DependencyValues()
    dependencies.configuration.diceRollMilliseconds = 0
    // Were the live generators used, a roll would differ five times in six.
    dependencies.randomNumbers = .constant(1)
    dependencies.uuid = .incrementing()
    let replay = JournalReplay(reducer: AppFeature(), initialState: AppFeature.State(), dependencies: dependencies)
    #expect(try replay.verify(history).reproduced)
    let recorded = try daemon.client().get(path: "/dice/rollHistory").value
    #expect(
      try replay.whatIf(history, at: history.lastVersion, .remove(version: 1)).edited[path: "dice", "rollHistory"]
        == recorded)
  }

  /// Verify replays shelfd 1.0.0's journal through the migration with 2.0.0,
  /// then 2.0.0's own records; run with another loan period than the
  /// daemon's, the loan diverges, and verify says where.
  @Test func verifyCrossesTheMigrationAndNamesADivergence() throws {
    let daemon = try DaemonProcess(copyingState: SchemaUpgradeTests.tail, executable: "shelf-v2")
    let client = try daemon.client()
    #expect(try client.send(path: "lend", arguments: ["cy"]) == 9)
    #expect(try client.send(path: "visit") == 10)
    // The visit's date, from the live clock, keeps its milliseconds in the
    // state's JSON (docs/PROTOCOL.md, "State as JSON"): what verify below
    // reproduces is the state to the millisecond.
    guard case .string(let lastVisit) = try client.get(path: "/lastVisit").value,
      let milliseconds = try? JSONDate.milliseconds(parsing: lastVisit)
    else {
      Issue.record("lastVisit is not a date")
      return
    }
    #expect(try JSONDate.string(of: JSONDate.date(milliseconds: milliseconds)) == lastVisit, "\(lastVisit)")
    #expect(daemon.stop() == 0)

    let same = try runProduct("shelf-v2", ["verify", "--state-dir", daemon.stateDirectory])
    #expect(same.status == 0, "\(same.output)\(same.error)")
    #expect(same.output.contains("every version reproduced: versions 1…10 of "), "\(same.output)")
    #expect(same.output.contains("(10 versions, schema 1, migrated to 2, in "), "\(same.output)")

    // Both loans diverge: 1.0.0's, migrated to a loan of 14 days (a patch of
    // schema 1, compared as migrated states), and 2.0.0's own.
    let other = try runProduct("shelf-v2", ["verify", "--state-dir", daemon.stateDirectory, "--loan-days", "7"])
    #expect(other.status == 1, "\(other.output)\(other.error)")
    #expect(
      other.output.contains(
        """
        version 5: {"lend":"ann"}
          recorded: [{"op":"replace","path":"/mode","value":{"lending":{"to":"ann"}}}]
          replayed: [{"op":"replace","path":"/mode","value":{"lending":{"days":7,"to":"ann"}}}]
          recorded in schema 1; this build's is 2
        version 9: lend cy
          recorded: [{"op":"replace","path":"/mode/lending/to","value":"cy"}]
          replayed: [{"op":"replace","path":"/mode/lending/days","value":7},{"op":"replace","path":"/mode/lending/to","value":"cy"}]
        """), "\(other.output)")
    #expect(other.output.contains("shelfd 2.0.0: 2 of 10 versions diverge"), "\(other.output)")

    // The first build cannot replay the second's journal.
    let older = try runProduct("shelf-v1", ["verify", "--state-dir", daemon.stateDirectory])
    #expect(older.status == 65)
    #expect(older.error.contains("newer than this build's schema 1"), "\(older.error)")
  }
}
