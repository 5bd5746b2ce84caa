import JSON
import Platform
import TestSupport
import Testing

@testable import Journal

/// The sequence of calls docs/DURABILITY.md ("For the daemon") gives, with a
/// small Codable state standing in for the app's: start, append batches,
/// snapshot when the policy says so, stop, and start again to the same state.
@Suite(.ownThreads) struct DaemonSequenceTests {
  struct State: Codable, Equatable {
    var count = 0
    var names: [String] = []
  }

  /// One daemon run: recover, rebuild the state, append `batches` batches of
  /// three actions, snapshot per `policy`, close. Returns the final state.
  func run(_ path: String, batches: Int, policy: SnapshotPolicy) throws -> (State, UInt64, RecoveryReport) {
    let journal = try JournalDirectory(path: path)
    let recovered = try journal.recover()
    let json = try recovered.replay(initialState: CanonicalJSON.value(of: State()))
    var state: State
    do {
      state = try CanonicalJSON.decode(State.self, from: json)
    } catch let error as DecodingError {
      throw StateDecodingFailure(error, path: recovered.snapshot?.path ?? journal.path, version: recovered.lastVersion)
    }
    let epoch = recovered.epoch ?? "run-1"
    if recovered.lastVersion == 0 && recovered.snapshot == nil {
      try journal.writeSnapshot(version: 0, state: json, epoch: epoch)
    }
    let writer = try journal.openWriter(after: recovered, epoch: epoch)
    var version = recovered.lastVersion
    var published = json
    for batch in 0..<batches {
      var records: [JournalRecord] = []
      for index in 0..<3 {
        var next = state
        next.count += 1
        next.names.append("n\(batch)-\(index)")
        let nextJSON = try CanonicalJSON.value(of: next)
        version += 1
        records.append(
          JournalRecord(
            version: version, time: WallClock.milliseconds(),
            origin: .object(["client": .string("test"), "connection": .int(1)]),
            action: .object(["add": .string("n\(batch)-\(index)")]),
            patch: JSONPatch.json(JSONPatch.diff(from: published, to: nextJSON))))
        state = next
        published = nextJSON
      }
      try writer.append(records)
      if policy.shouldSnapshot(writer.progress) {
        try journal.writeSnapshot(version: version, state: published, epoch: epoch)
      }
    }
    try writer.close()
    return (state, version, recovered.report)
  }

  @Test func restartGivesTheSameState() throws {
    let directory = try TemporaryDirectory()
    let policy = SnapshotPolicy(journalBytes: 2000, records: nil, minimumRatioToSnapshot: 0)
    let (first, firstVersion, _) = try run(directory.journal, batches: 20, policy: policy)
    #expect(first.count == 60)
    let snapshots = try Files.names(in: directory.journal).filter { $0.hasSuffix(".snapshot") }
    #expect(snapshots.count == 1)
    #expect(snapshots != ["snapshot-00000000000000000000.snapshot"], "the policy must have snapshotted")

    let (second, secondVersion, report) = try run(directory.journal, batches: 5, policy: policy)
    #expect(report.lastVersion == firstVersion)
    #expect(report.warnings.isEmpty)
    #expect(second.count == 75)
    #expect(secondVersion == 75)
    #expect(second.names.prefix(60).elementsEqual(first.names))

    let (third, _, _) = try run(directory.journal, batches: 0, policy: policy)
    #expect(third == second)
    let history = try JournalDirectory(path: directory.journal).reader
    #expect(try history.state(at: 75, initialState: .null) == CanonicalJSON.value(of: second))
  }
}
