import Foundation
import JSON
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

@Suite(.ownThreads) struct SnapshotTests {
  /// The file's format: a JSON header line, the state, a line feed.
  @Test func fileFormat() throws {
    let bytes = SnapshotFile.encode(version: 7, epoch: "e1", time: 1_700_000_000_000, state: .object(["a": .int(1)]))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(
      text
        == #"{"crc32c":3489125738,"epoch":"e1","format":2,"length":7,"magic":"storedaemon-snapshot","schema":1,"time":1700000000000,"version":7}"#
        + "\n" + #"{"a":1}"# + "\n")
    #expect(CRC32C.checksum(Array(#"{"a":1}"#.utf8)) == 3_489_125_738)
    let snapshot = try SnapshotFile.decode(bytes, path: "p", expectedVersion: 7)
    #expect(snapshot.state == .object(["a": .int(1)]))
    #expect(snapshot.epoch == "e1")
    #expect(snapshot.time == 1_700_000_000_000)
  }

  /// The snapshot is renamed into place: no temporary file is left.
  @Test func atomicWrite() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let state: JSONValue = .object(["items": .array((0..<1000).map { .int($0) })])
    let result = try journal.writeSnapshot(version: 0, state: state, epoch: "e")
    #expect(try Files.names(in: directory.journal) == ["lock", "snapshot-00000000000000000000.snapshot"])
    #expect(result.bytes == (try Files.read(result.path)).count)
    let recovered = try journal.recover()
    #expect(recovered.snapshot?.state == state)
    #expect(recovered.lastVersion == 0)
  }

  /// Writing the same version again leaves the existing file alone.
  @Test func sameVersionIsNotRewritten() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let first = try journal.writeSnapshot(version: 0, state: .int(1), epoch: "e")
    let bytes = try Files.read(first.path)
    try journal.writeSnapshot(version: 0, state: .int(2), epoch: "e")
    #expect(try Files.read(first.path) == bytes)
  }

  /// A snapshot newer than the journal's last version is refused.
  @Test func snapshotAheadIsRefused() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.append(SampleJournal.records(1...3))
    do {
      try journal.writeSnapshot(version: 4, state: .null, epoch: "e")
      Issue.record("a snapshot ahead of the journal was written")
    } catch {
      guard case .invalidArgument(let message) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(message.contains("last version is 3"))
    }
  }

  /// Compaction keeps the newest segment, removes older snapshots, and only
  /// once the new snapshot is in place.
  @Test func compactionKeepsWhatIsNeeded() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(segmentSizeLimit: 1024))
    try writer.append(SampleJournal.records(1...20))
    try journal.writeSnapshot(version: 20, state: SampleJournal.state(at: 20), epoch: "e")
    try writer.append(SampleJournal.records(21...40))
    let segments = try Journals.segments(in: directory.journal)
    let result = try journal.writeSnapshot(version: 35, state: SampleJournal.state(at: 35), epoch: "e")
    #expect(result.removed.contains(directory.journal + "/snapshot-00000000000000000020.snapshot"))
    let kept = try Journals.segments(in: directory.journal)
    #expect(kept.last == segments.last)
    // The first kept segment holds version 36 or an earlier one.
    let firstKept = UInt64(kept[0].split(separator: "/").last!.prefix(20))!
    #expect(firstKept <= 36)
    try writer.close()
    let recovered = try journal.recover()
    #expect(recovered.snapshot?.version == 35)
    #expect(try recovered.records.map { try $0.decoded() } == SampleJournal.records(36...40))
  }

  /// An unreadable snapshot stops recovery, named, and is left byte for byte.
  @Test func unreadableSnapshotIsLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    let path = try makeJournalWithSnapshot(directory, compact: true)
    var bytes = try Files.read(path)
    bytes[bytes.count - 10] ^= 0x04
    try Files.write(bytes, to: path)
    let before = try Files.contents(of: directory.journal)
    for repair in [false, true] {
      do {
        _ = try Journals.recover(directory.journal, repair: repair)
        Issue.record("an unreadable snapshot was accepted (repair: \(repair))")
      } catch let error as JournalError {
        guard case .unreadableSnapshot(let named, let reason, let advice) = error else {
          Issue.record("unexpected \(error)")
          continue
        }
        #expect(named == path)
        #expect(reason.contains("checksum"))
        #expect(error.description.contains("left untouched"))
        if repair { #expect(advice.contains("cannot go around it")) }
      }
      #expect(try Files.contents(of: directory.journal) == before)
    }
  }

  /// With repair, an unreadable snapshot is moved aside when the journal
  /// still holds every version it covered.
  @Test func repairGoesAroundAnUnreadableSnapshot() throws {
    let directory = try TemporaryDirectory()
    let path = try makeJournalWithSnapshot(directory, compact: false)
    let bytes = try Files.read(path)
    try Files.write(Array(bytes.prefix(40)), to: path)
    #expect(throws: JournalError.self) { try Journals.recover(directory.journal) }
    let (recovered, records) = try Journals.recover(directory.journal, repair: true)
    #expect(recovered.snapshot == nil)
    #expect(records == SampleJournal.records(1...60))
    guard case .snapshotMovedAside(path, path + ".damaged", let reason)? = recovered.report.warnings.first,
      recovered.report.warnings.count == 1
    else {
      Issue.record("expected the snapshot moved aside, got \(recovered.report.events)")
      return
    }
    #expect(reason.contains("header line"))
    #expect(try Files.read(path + ".damaged") == Array(bytes.prefix(40)))
    #expect(!Files.exists(path))
  }

  @Test func futureSnapshotFormat() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let result = try journal.writeSnapshot(version: 0, state: .int(1), epoch: "e")
    let text = String(decoding: try Files.read(result.path), as: UTF8.self).replacing(
      "\"format\":2", with: "\"format\":3")
    try Files.write(Array(text.utf8), to: result.path)
    #expect(throws: JournalError.unsupportedFormat(path: result.path, found: 3, supported: 2)) {
      try journal.recover(repair: true)
    }
  }

  @Test func foreignSnapshot() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: false)
    let path = directory.journal + "/snapshot-00000000000000000000.snapshot"
    try Files.write(Array("{\"hello\":1}\n".utf8), to: path)
    do {
      _ = try Journals.recover(directory.journal)
      Issue.record("a foreign snapshot was accepted")
    } catch let error as JournalError {
      guard case .unreadableSnapshot(_, let reason, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(reason.contains("not a storedaemon snapshot"))
    }
  }

  /// Versions 1…60 with a snapshot at 40; `compact` decides whether the
  /// segments before it are removed. Returns the snapshot's path.
  private func makeJournalWithSnapshot(_ directory: TemporaryDirectory, compact: Bool) throws -> String {
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(segmentSizeLimit: compact ? 1024 : 1 << 20))
    for start in stride(from: UInt64(1), through: 40, by: 5) {
      try writer.append(SampleJournal.records(start...start + 4))
    }
    let result = try journal.writeSnapshot(version: 40, state: SampleJournal.state(at: 40), epoch: "e")
    #expect(result.removed.isEmpty != compact)
    try writer.append(SampleJournal.records(41...60))
    try writer.close()
    return result.path
  }
}
