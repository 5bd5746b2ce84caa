import ComposableCore
import Features
import JSON
import Journal
import Replay
import TestSupport
import Testing
import Wire

@testable import StoreDaemon

/// The daemon's history reader on a journal compacted by a snapshot: what is
/// still held is answered, what was compacted away is refused with a message
/// that says from where the journal holds.
@Suite(.ownThreads) struct HistoryReaderTests {
  let initial = try! CanonicalJSON.value(of: AppFeature.State())

  func record(_ version: UInt64) -> JournalRecord {
    JournalRecord(
      version: version, time: 1_000 * Int64(version),
      origin: .object(["client": .string("t"), "origin": .int(Int(version))]),
      action: .object(["counter": .string("incrementButtonTapped")]),
      patch: .array([
        .object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(Int(version))])
      ]))
  }

  func state(at version: UInt64) -> JSONValue {
    var state = AppFeature.State()
    state.counter.count = Int(version)
    return try! CanonicalJSON.value(of: state)
  }

  /// Versions 1…60 in small segments, a snapshot at 40 that dropped the older ones.
  func makeReader(_ directory: TemporaryDirectory) throws -> (HistoryReader, oldest: UInt64) {
    let journal = try JournalDirectory(path: directory.appending("journal"))
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: JournalWriter.Configuration(segmentSizeLimit: 1024))
    for version in UInt64(1)...60 {
      try writer.append([record(version)])
      if version == 40 { try journal.writeSnapshot(version: 40, state: state(at: 40), epoch: "e") }
    }
    let oldest = try #require(try journal.reader.oldestRetainedVersion())
    #expect(oldest > 1 && oldest <= 40, "the snapshot at 40 compacted the oldest segments")
    return (
      HistoryReader(
        reader: journal.reader, initialState: initial, schema: AppFeature.Action.actionSchema,
        whatIf: { _, _, _, _ throws(ReplayError) in throw .invalidRequest("not asked in these tests") }),
      oldest
    )
  }

  @Test func heldRecordsAndStatesAreAnswered() throws {
    let directory = try TemporaryDirectory()
    let (reader, oldest) = try makeReader(directory)
    guard case .success(.log(let records, 60, false)) = reader.answer(.log(since: nil, last: nil, through: 60)) else {
      Issue.record("no log")
      return
    }
    #expect(records.map(\.version) == Array(oldest...60))
    #expect(records.first?.summary == "counter.incrementButtonTapped")
    #expect(records.first?.time == 1_000 * Int64(oldest))
    // Records written after `through` are not shown.
    guard case .success(.log(let tail, 50, false)) = reader.answer(.log(since: nil, last: 3, through: 50)) else {
      Issue.record("no log")
      return
    }
    #expect(tail.map(\.version) == [48, 49, 50])
    // States from the snapshot on; the records before it are shown, but no
    // state older than the snapshot is held to apply them to.
    for version: UInt64 in [40, 45, 59] {
      #expect(
        reader.answer(.state(version: version, pointer: try JSONPointer("/counter/count"), current: 60))
          == .success(.state(version: version, path: "/counter/count", value: .int(Int(version)))))
    }
  }

  @Test func compactedVersionsAreRefusedNamingTheOldestHeld() throws {
    let directory = try TemporaryDirectory()
    let (reader, oldest) = try makeReader(directory)
    #expect(
      reader.answer(.log(since: 0, last: nil, through: 60))
        == .failure(
          MessageError(
            .versionUnavailable,
            "the journal no longer holds version 1: versions before \(oldest) were compacted into a snapshot; "
              + "ask for the records since version \(oldest - 1) or later")))
    guard case .failure(let error) = reader.answer(.state(version: 1, pointer: .root, current: 60)) else {
      Issue.record("version 1 was compacted, yet answered")
      return
    }
    #expect(error.code == .versionUnavailable)
    #expect(error.message.contains("version 1 is no longer in the journal"))
    guard case .failure(let older) = reader.answer(.state(version: oldest, pointer: .root, current: 60)) else {
      Issue.record("no state before the snapshot is held, yet version \(oldest) was answered")
      return
    }
    #expect(older.message.hasSuffix("the oldest version kept is 40"))
    // `last` reaching past the oldest held version is cut to what is held.
    guard case .success(.log(let records, _, _)) = reader.answer(.log(since: nil, last: 1000, through: 60)) else {
      Issue.record("no log")
      return
    }
    #expect(records.first?.version == oldest)
  }
}
