import Foundation
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

/// Damage that a crash cannot explain stops recovery, naming the file and
/// offset and what to do; `repair` keeps what precedes it and moves the rest
/// aside, reporting exactly what it dropped.
@Suite(.ownThreads) struct DamageTests {
  /// Garbage over a record in the middle of the newest segment, with valid
  /// records after it.
  @Test func garbageInTheMiddle() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 30)[0]
    let offsets = try Journals.recordOffsets(segment)
    var bytes = try Files.read(segment)
    let damaged = offsets[14]  // the record of version 15
    for index in damaged + 3..<damaged + 40 { bytes[index] = 0x5A }
    try Files.write(bytes, to: segment)
    let before = try Files.contents(of: directory.journal)

    do {
      _ = try Journals.recover(directory.journal)
      Issue.record("damage in the middle was accepted")
    } catch let error as JournalError {
      guard case .damaged(let damage) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(damage.path == segment)
      #expect(damage.offset == damaged)
      #expect(damage.validRecordAfter == offsets[15])
      #expect(damage.lastGoodVersion == 14)
      let message = error.description
      #expect(message.contains(segment))
      #expect(message.contains("byte \(damaged)"))
      #expect(message.contains("--repair"))
    }
    #expect(try Files.contents(of: directory.journal) == before, "a refused recovery must change nothing")

    let (recovered, records) = try Journals.recover(directory.journal, repair: true)
    #expect(records == SampleJournal.records(1...14))
    #expect(recovered.report.droppedData)
    guard case .damageMovedAside(let dropped)? = recovered.report.warnings.first else {
      Issue.record("expected a report of dropped data, got \(recovered.report.events)")
      return
    }
    #expect(dropped.path == segment)
    #expect(dropped.offset == damaged)
    #expect(dropped.byteCount == bytes.count - damaged)
    #expect(dropped.readableVersions == [16...30])
    #expect(dropped.movedTo == segment + ".damaged-\(damaged)")
    #expect(try Files.read(dropped.movedTo) == Array(bytes[damaged...]))
    #expect(try Files.read(segment) == Array(bytes[..<damaged]))
    #expect(dropped.description.contains("16…30"))

    // The writer continues after the repair, with versions from 15 again.
    try Journals.write(directory.journal, through: 40)
    #expect(try Journals.recover(directory.journal).1 == SampleJournal.records(1...40))
  }

  /// Damage in an older segment: repair keeps the records before it and
  /// moves the rest of that segment and every later segment aside.
  @Test func damageInAnOlderSegment() throws {
    let directory = try TemporaryDirectory()
    let segments = try Journals.write(
      directory.journal, through: 80, batch: 5, configuration: .init(segmentSizeLimit: 2048))
    try #require(segments.count >= 3)
    let offsets = try Journals.recordOffsets(segments[1])
    var bytes = try Files.read(segments[1])
    bytes[offsets[2] + 20] ^= 0x01
    try Files.write(bytes, to: segments[1])
    let firstOfSecond = UInt64(segments[1].split(separator: "/").last!.prefix(20))!

    #expect(throws: JournalError.self) { try Journals.recover(directory.journal) }
    let (recovered, records) = try Journals.recover(directory.journal, repair: true)
    #expect(records == SampleJournal.records(1...firstOfSecond + 1))
    let dropped = recovered.report.warnings.compactMap { event -> DroppedData? in
      if case .damageMovedAside(let dropped) = event { dropped } else { nil }
    }
    #expect(dropped.count == segments.count - 1)
    #expect(dropped.first?.offset == offsets[2])
    for (moved, path) in zip(dropped.dropFirst(), segments.dropFirst(2)) {
      #expect(moved.path == path)
      #expect(moved.offset == 0)
      #expect(moved.movedTo == path + ".damaged")
      #expect(Files.exists(moved.movedTo))
      #expect(!Files.exists(path))
    }
    #expect(dropped.last?.readableVersions.last?.upperBound == 80)
  }

  /// A missing segment leaves a gap in the versions: corruption.
  @Test func versionGap() throws {
    let directory = try TemporaryDirectory()
    let segments = try Journals.write(
      directory.journal, through: 60, batch: 5, configuration: .init(segmentSizeLimit: 2048))
    try #require(segments.count >= 3)
    try FileManager.default.removeItem(atPath: segments[1])
    do {
      _ = try Journals.recover(directory.journal)
      Issue.record("a gap in the versions was accepted")
    } catch let error as JournalError {
      guard case .damaged(let damage) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(damage.path == segments[2])
      #expect(damage.offset == 0)
      #expect(damage.problem.contains("missing"))
    }
  }

  /// A record whose version does not follow, inside one segment.
  @Test func versionGapInsideASegment() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: false)
    let bytes =
      SegmentHeader(firstVersion: 1, epoch: "e").encoded() + RecordFormat.encode(SampleJournal.record(1))
      + RecordFormat.encode(SampleJournal.record(3))
    let path = directory.journal + "/00000000000000000001.journal"
    try Files.write(bytes, to: path)
    do {
      _ = try Journals.recover(directory.journal)
      Issue.record("version 3 after version 1 was accepted")
    } catch let error as JournalError {
      guard case .damaged(let damage) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(damage.offset == bytes.count - RecordFormat.encode(SampleJournal.record(3)).count)
      #expect(damage.problem.contains("version 2 is missing"))
    }
    let (_, records) = try Journals.recover(directory.journal, repair: true)
    #expect(records == [SampleJournal.record(1)])
  }

  /// A file named like a segment that is not one is refused, not parsed.
  @Test func foreignFile() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: false)
    let path = directory.journal + "/00000000000000000001.journal"
    try Files.write(Array("PK\u{3}\u{4} a zip file".utf8), to: path)
    #expect(throws: JournalError.foreignFile(path: path, firstBytes: Array("PK\u{3}\u{4} a z".utf8))) {
      try Journals.recover(directory.journal)
    }
    let message = JournalError.foreignFile(path: path, firstBytes: [0x50, 0x4B]).description
    #expect(message.contains("is not one"))
    #expect(message.contains("50 4b"))
  }

  /// A segment of a newer format is refused, even with repair, and left as
  /// it is.
  @Test func futureFormat() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 3)[0]
    var bytes = try Files.read(segment)
    bytes[11] = 3
    try Files.write(bytes, to: segment)
    for repair in [false, true] {
      #expect(throws: JournalError.unsupportedFormat(path: segment, found: 3, supported: 2)) {
        try Journals.recover(directory.journal, repair: repair)
      }
    }
    #expect(try Files.read(segment) == bytes)
    #expect(
      JournalError.unsupportedFormat(path: segment, found: 3, supported: 2).description.contains(
        "newer build of the daemon"))
  }

  /// A checksum-valid record that is not a record cannot be a torn write,
  /// even at the very end.
  @Test func validChecksumButNotARecord() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 3)[0]
    let payload = Array(#"{"hello":"world"}"#.utf8)
    var record: [UInt8] = []
    record.appendBigEndian(UInt32(payload.count))
    record.appendBigEndian(CRC32C.checksum(payload))
    record.appendBigEndian(CRC32C.checksum(record))
    let bytes = try Files.read(segment)
    try Files.write(bytes + record + payload, to: segment)
    do {
      _ = try Journals.recover(directory.journal)
      Issue.record("a foreign record was accepted")
    } catch let error as JournalError {
      guard case .damaged(let damage) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(damage.offset == bytes.count)
      #expect(damage.problem.contains("not a journal record"))
    }
  }
}
