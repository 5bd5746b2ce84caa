import Testing

@testable import Journal

@Suite struct SegmentHeaderTests {
  @Test func roundTrip() throws {
    let header = SegmentHeader(firstVersion: 12_345, epoch: "9f3a-é")
    let bytes = header.encoded()
    #expect(bytes.count == 22 + "9f3a-é".utf8.count + 4)
    let decoded = try bytes.withBytes { buffer throws(SegmentHeader.Problem) in try SegmentHeader.decode(buffer) }
    #expect(decoded.header == header)
    #expect(decoded.length == bytes.count)
  }

  /// A segment of format 1 (enums in Foundation's shape) still reads, and
  /// says so; a new header is of the current format.
  @Test func olderFormatIsReadAndNamed() throws {
    let old = SegmentHeader(firstVersion: 1, epoch: "e", format: JournalFormat.foundationEnums)
    let bytes = old.encoded()
    #expect(bytes[11] == 1)
    let decoded = try bytes.withBytes { buffer throws(SegmentHeader.Problem) in try SegmentHeader.decode(buffer) }
    #expect(decoded.header.format == JournalFormat.foundationEnums)
    #expect(SegmentHeader(firstVersion: 1, epoch: "e").encoded()[11] == UInt8(JournalFormat.current))
  }

  @Test func foreignFileIsRecognised() {
    let bytes = Array("{\"not\":\"a journal\"}".utf8)
    #expect(decode(bytes) == .foreign(firstBytes: Array(bytes.prefix(8))))
    #expect(decode([]) == .foreign(firstBytes: []))
  }

  @Test func newerFormatIsRecognised() {
    var bytes = SegmentHeader(firstVersion: 1, epoch: "e").encoded()
    bytes[11] = 3
    #expect(decode(bytes) == .unsupportedFormat(3))
  }

  @Test func damageIsRecognised() {
    var bytes = SegmentHeader(firstVersion: 1, epoch: "e").encoded()
    bytes[15] ^= 1
    guard case .damaged(let reason)? = decode(bytes) else {
      Issue.record("a changed first version must fail the header's checksum")
      return
    }
    #expect(reason.contains("checksum"))
    guard case .damaged? = decode(Array(bytes[..<10])) else {
      Issue.record("a header cut short is damaged")
      return
    }
  }

  @Test func epochRules() {
    #expect(Epoch.problem("a1b2") == nil)
    #expect(Epoch.problem("") != nil)
    #expect(Epoch.problem(String(repeating: "x", count: 256)) != nil)
    #expect(Epoch.problem("tab\there") != nil)
  }

  @Test func fileNames() {
    #expect(JournalFileName.segment(1) == "00000000000000000001.journal")
    #expect(JournalFileName.snapshot(UInt64.max) == "snapshot-18446744073709551615.snapshot")
    #expect(JournalFileName("00000000000000000042.journal") == .segment(firstVersion: 42))
    #expect(JournalFileName("00000000000000000042.journal.creating") == .segmentBeingCreated(firstVersion: 42))
    #expect(JournalFileName("snapshot-00000000000000000042.snapshot") == .snapshot(version: 42))
    #expect(JournalFileName("snapshot-00000000000000000042.snapshot.tmp") == .snapshotBeingWritten(version: 42))
    #expect(JournalFileName("00000000000000000042.journal.torn-120") == .setAside)
    #expect(JournalFileName("00000000000000000042.journal.damaged") == .setAside)
    #expect(JournalFileName("42.journal") == .other)
    #expect(JournalFileName("0000000000000000004x.journal") == .other)
    #expect(JournalFileName("lock") == .lock)
  }

  private func decode(_ bytes: [UInt8]) -> SegmentHeader.Problem? {
    do {
      _ = try bytes.withBytes { buffer throws(SegmentHeader.Problem) in try SegmentHeader.decode(buffer) }
      return nil
    } catch {
      return error
    }
  }
}
