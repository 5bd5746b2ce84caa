import JSON
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

/// Records encoded as they are made (``EncodedRecords``) are written as the
/// same bytes, and read back as the same records, as records handed to the
/// writer as values; the writer refuses what it refuses of values.
@Suite(.ownThreads) struct EncodedRecordsTests {
  /// A record with the canonical bytes of its parts, as the daemon makes one.
  private static func canonical(_ record: JournalRecord) -> JournalRecord {
    var record = record
    record.canonical = (CanonicalJSON.encode(record.action), CanonicalJSON.encode(record.patch))
    record.canonicalOrigin = CanonicalJSON.encode(record.origin)
    return record
  }

  /// The same records, encoded from their parts' bytes, from values with
  /// those bytes and from values without, make the same segment.
  @Test func encodedRecordsAreWrittenAsRecordsAre() throws {
    let directory = try TemporaryDirectory()
    let records = SampleJournal.records(1...40)
    var segments: [[UInt8]] = []
    for way in 0..<3 {
      let path = directory.file("journal-\(way)")
      let journal = try JournalDirectory(path: path)
      let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
      for batch in stride(from: 0, to: records.count, by: 7) {
        let slice = records[batch..<min(batch + 7, records.count)]
        switch way {
        case 0:
          try writer.append(Array(slice))
        case 1:
          var encoded = EncodedRecords()
          for record in slice { encoded.append(Self.canonical(record)) }
          try writer.write(encoded)
        default:
          var encoded = EncodedRecords(reusing: [1, 2, 3])
          for record in slice.map(Self.canonical) {
            encoded.append(
              version: record.version, time: record.time, action: CanonicalJSON.encode(record.action),
              inputs: record.inputs, origin: .canonical(CanonicalJSON.encode(record.origin)),
              patch: CanonicalJSON.encode(record.patch))
          }
          #expect(encoded.count == slice.count && encoded.firstVersion == slice.first?.version)
          try writer.write(encoded)
        }
      }
      try writer.close()
      #expect(try journal.recover().records.map { try $0.decoded() } == records)
      segments.append(try Files.read(try #require(try Journals.segments(in: path).first)))
    }
    #expect(segments[1] == segments[0])
    #expect(segments[2] == segments[0])
  }

  /// Records that do not continue the journal's versions, or one over the
  /// size limit, are refused as a batch; nothing of it is written, and the
  /// writer goes on.
  @Test func whatTheWriterRefusesOfValuesItRefusesEncoded() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(maximumRecordBytes: 300))
    func encoded(_ records: [JournalRecord]) -> EncodedRecords {
      var encoded = EncodedRecords()
      for record in records { encoded.append(record) }
      return encoded
    }
    try writer.write(encoded(SampleJournal.records(1...3)))
    #expect(throws: JournalWriteError.versionOutOfSequence(expected: 4, found: 5, index: 0)) {
      try writer.write(encoded(SampleJournal.records(5...6)))
    }
    var gap = SampleJournal.records(4...6)
    gap[2].version = 9
    #expect(throws: JournalWriteError.versionOutOfSequence(expected: 6, found: 9, index: 2)) {
      try writer.write(encoded(gap))
    }
    var big = SampleJournal.record(5)
    big.action = .string(String(repeating: "x", count: 400))
    do {
      try writer.write(encoded([SampleJournal.record(4), big]))
      Issue.record("a record over the limit was accepted")
    } catch {
      guard case .recordTooLarge(5, _, 300) = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
    #expect(try writer.write(EncodedRecords()).bytes == 0)
    try writer.write(encoded(SampleJournal.records(4...5)))
    #expect(writer.progress.lastVersion == 5)
    try writer.close()
    #expect(try journal.recover().records.map { try $0.decoded() } == SampleJournal.records(1...5))
  }
}
