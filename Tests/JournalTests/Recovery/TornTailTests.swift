import Foundation
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

/// A crash mid-append leaves the newest segment ending in part of a record:
/// recovery cuts it off, keeps its bytes in a side file, and warns.
@Suite(.ownThreads) struct TornTailTests {
  /// The last record cut at every length from 1 byte to all but one: recovery
  /// succeeds with the records before it, the segment ends where the record
  /// began, and the side file holds exactly the cut bytes.
  @Test func everyPrefixOfTheLastRecord() throws {
    let directory = try TemporaryDirectory()
    let pristine = directory.file("pristine")
    let segment = try Journals.write(pristine, through: 12, batch: 4)[0]
    let name = String(segment.split(separator: "/").last!)
    let whole = try Files.read(segment)
    let lastStart = try Journals.recordOffsets(segment).last!
    let lastLength = whole.count - lastStart
    #expect(lastLength > 100)

    for cut in 1..<lastLength {
      let journal = directory.file("cut-\(cut)")
      try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: false)
      try Files.write(Array(whole[..<(lastStart + cut)]), to: journal + "/" + name)
      let (recovered, records) = try Journals.recover(journal)
      #expect(records == SampleJournal.records(1...11), "cut at \(cut)")
      #expect(recovered.lastVersion == 11)
      guard case .tornTailCut(let tail)? = recovered.report.warnings.first, recovered.report.warnings.count == 1 else {
        Issue.record("cut at \(cut): expected one torn-tail warning, got \(recovered.report.events)")
        continue
      }
      #expect(tail.offset == lastStart)
      #expect(tail.byteCount == cut)
      #expect(tail.savedTo == journal + "/" + name + ".torn-\(lastStart)")
      #expect(try Files.read(tail.savedTo) == Array(whole[lastStart..<(lastStart + cut)]), "cut at \(cut)")
      #expect(try Files.read(journal + "/" + name) == Array(whole[..<lastStart]))
      // A second recovery finds a clean journal and keeps the side file.
      let (again, _) = try Journals.recover(journal)
      #expect(again.report.warnings.isEmpty)
      #expect(again.report.events == [.setAsideFile(path: tail.savedTo)])
      try FileManager.default.removeItem(atPath: journal)
    }
  }

  /// A whole last record whose payload no longer matches its checksum (the
  /// kernel wrote some pages of it, not others) is torn too.
  @Test func checksumMismatchInLastRecord() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 8)[0]
    var bytes = try Files.read(segment)
    let lastStart = try Journals.recordOffsets(segment).last!
    bytes[bytes.count - 5] ^= 0xFF
    try Files.write(bytes, to: segment)
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...7))
    guard case .tornTailCut(let tail)? = recovered.report.warnings.first else {
      Issue.record("expected a torn tail, got \(recovered.report.events)")
      return
    }
    #expect(tail.offset == lastStart)
    #expect(tail.problem.contains("checksum"))
    #expect(try Files.read(tail.savedTo) == Array(bytes[lastStart...]))
  }

  /// Zeros after the last record (the file grew but its data never reached
  /// the disk) are a torn tail.
  @Test func zeroFilledTail() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 5)[0]
    let bytes = try Files.read(segment)
    try Files.write(bytes + [UInt8](repeating: 0, count: 8192), to: segment)
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...5))
    guard case .tornTailCut(let tail)? = recovered.report.warnings.first else {
      Issue.record("expected a torn tail, got \(recovered.report.events)")
      return
    }
    #expect(tail.offset == bytes.count)
    #expect(tail.byteCount == 8192)
    #expect(try Files.read(segment) == bytes)
  }

  /// After cutting a torn tail, the writer continues the segment and the
  /// next recovery reads everything.
  @Test func writerContinuesAfterCut() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 6)[0]
    let bytes = try Files.read(segment)
    try Files.write(Array(bytes.dropLast(3)), to: segment)
    try Journals.write(directory.journal, through: 20)
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...20))
    #expect(recovered.report.warnings.isEmpty)
  }

  /// The torn tail of a segment that is not the newest is damage, not a
  /// torn tail: segments are synced before the next one starts.
  @Test func tornRecordInOlderSegmentIsDamage() throws {
    let directory = try TemporaryDirectory()
    let segments = try Journals.write(
      directory.journal, through: 60, batch: 5, configuration: .init(segmentSizeLimit: 2048))
    #expect(segments.count >= 3)
    let first = try Files.read(segments[0])
    try Files.write(Array(first.dropLast(10)), to: segments[0])
    let before = try Files.contents(of: directory.journal)
    do {
      _ = try Journals.recover(directory.journal)
      Issue.record("a torn record in an older segment was accepted")
    } catch let error as JournalError {
      guard case .damaged(let damage) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(damage.path == segments[0])
      #expect(damage.offset == (try Journals.recordOffsets(segments[0])).last!)
    }
    #expect(try Files.contents(of: directory.journal) == before, "a refused recovery must change nothing")
  }
}
