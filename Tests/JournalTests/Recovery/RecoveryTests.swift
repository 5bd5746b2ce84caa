import Foundation
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

@Suite(.ownThreads) struct RecoveryTests {
  @Test func emptyDirectory() throws {
    let directory = try TemporaryDirectory()
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records.isEmpty)
    #expect(recovered.lastVersion == 0)
    #expect(recovered.snapshot == nil)
    #expect(recovered.epoch == nil)
    #expect(try recovered.replay(initialState: SampleJournal.initialState) == SampleJournal.initialState)
    #expect(Files.exists(directory.journal + "/lock"))
  }

  /// Snapshot, compaction, more records: recovery gives the same state and
  /// version as replaying everything from the start.
  @Test func snapshotAndCompaction() throws {
    let directory = try TemporaryDirectory()
    let configuration = JournalWriter.Configuration(segmentSizeLimit: 2048)
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e", configuration: configuration)
    try writer.append(SampleJournal.records(1...100))
    let segmentsBefore = try Journals.segments(in: directory.journal)
    try writer.append(SampleJournal.records(101...140))
    let result = try journal.writeSnapshot(version: 140, state: SampleJournal.state(at: 140), epoch: "e")
    #expect(result.path == directory.journal + "/snapshot-00000000000000000140.snapshot")
    #expect(Set(result.removed) == Set(segmentsBefore), "segments wholly before version 141 are removed")
    #expect(writer.progress.snapshotVersion == 140)
    #expect(writer.progress.bytesSinceSnapshot == 0)
    try writer.append(SampleJournal.records(141...175))
    try writer.close()

    let recovered = try journal.recover()
    let records = try recovered.records.map { try $0.decoded() }
    #expect(recovered.snapshot?.version == 140)
    #expect(recovered.snapshot?.state == SampleJournal.state(at: 140))
    #expect(records == SampleJournal.records(141...175))
    #expect(recovered.lastVersion == 175)
    #expect(try recovered.replay(initialState: .null) == SampleJournal.state(at: 175))
    #expect(
      recovered.bytesSinceSnapshot
        == SampleJournal.records(141...175).map { RecordFormat.encode($0).count }.reduce(0, +))
  }

  /// A snapshot that got ahead of the journal (its records were never
  /// synced when the machine crashed): recovery starts from the snapshot, and
  /// the writer starts a new segment after it rather than leave a gap.
  @Test func snapshotAheadOfTheJournal() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.append(SampleJournal.records(1...10))
    try journal.writeSnapshot(version: 10, state: SampleJournal.state(at: 10), epoch: "e")
    try writer.close()
    let segment = try Journals.segments(in: directory.journal)[0]
    try Files.truncate(segment, to: try Journals.recordOffsets(segment)[7])

    let recovered = try journal.recover()
    #expect(recovered.lastVersion == 10)
    #expect(recovered.records.isEmpty)
    let next = try journal.openWriter(after: recovered, epoch: "e")
    try next.append(SampleJournal.records(11...15))
    try next.close()
    #expect(try Journals.segments(in: directory.journal).count == 2)
    let again = try journal.recover()
    #expect(try again.records.map { try $0.decoded() } == SampleJournal.records(11...15))
    #expect(try again.replay(initialState: .null) == SampleJournal.state(at: 15))
  }

  /// Leftovers of interrupted writes are reported and ignored.
  @Test func interruptedFilesAreIgnored() throws {
    let directory = try TemporaryDirectory()
    try Journals.write(directory.journal, through: 5)
    let creating = directory.journal + "/00000000000000000006.journal.creating"
    let pending = directory.journal + "/snapshot-00000000000000000005.snapshot.tmp"
    try Files.write([1, 2, 3], to: creating)
    try Files.write([4, 5, 6], to: pending)
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...5))
    #expect(Set(recovered.report.events) == [.interruptedFile(path: creating), .interruptedFile(path: pending)])
    #expect(recovered.report.warnings.isEmpty)
    // The writer reuses the segment name; the next snapshot removes the other.
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "other")
    try writer.append(SampleJournal.records(6...6))
    let result = try journal.writeSnapshot(version: 6, state: SampleJournal.state(at: 6), epoch: "other")
    #expect(result.removed.contains(pending))
    #expect(!Files.exists(creating))
  }

  /// The report says what was recovered, one line per event.
  @Test func reportDescription() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 4)[0]
    try Files.write(try Files.read(segment) + [0, 0, 0, 9], to: segment)
    let (recovered, _) = try Journals.recover(directory.journal)
    let lines = recovered.report.description.split(separator: "\n")
    #expect(lines.first == "recovered version 4 from the empty state and 4 records in 1 segments")
    #expect(lines.count == 2)
    #expect(lines.last?.hasPrefix("warning: the last record of \(segment) was cut short by a crash") == true)
  }
}
