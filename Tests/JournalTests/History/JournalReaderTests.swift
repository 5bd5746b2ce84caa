import ComposableCore
import Dispatch
import Foundation
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

@Suite struct JournalReaderTests {
  /// Versions 1…120 over several segments, a snapshot at 80 (compacting
  /// what precedes it), the writer still open.
  func makeJournal(_ directory: TemporaryDirectory) throws -> (JournalDirectory, JournalWriter) {
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(segmentSizeLimit: 2048))
    for start in stride(from: UInt64(1), through: 120, by: 4) {
      try writer.append(SampleJournal.records(start...start + 3))
      if start + 3 == 80 {
        let result = try journal.writeSnapshot(version: 80, state: SampleJournal.state(at: 80), epoch: "e")
        #expect(!result.removed.isEmpty)
      }
    }
    return (journal, writer)
  }

  @Test func recordsByRange() throws {
    let directory = try TemporaryDirectory()
    let (journal, _) = try makeJournal(directory)
    let reader = journal.reader
    let oldest = try #require(try reader.oldestRetainedVersion())
    #expect(oldest > 1 && oldest <= 80)
    #expect(try reader.records(from: 85, through: 110) == SampleJournal.records(85...110))
    #expect(try reader.records(from: 85, through: 110, limit: 3) == SampleJournal.records(85...87))
    #expect(try reader.records(from: oldest, through: 120) == SampleJournal.records(oldest...120))
    #expect(try reader.records(from: 120, through: 119).isEmpty)
  }

  @Test func lastRecords() throws {
    let directory = try TemporaryDirectory()
    let (journal, _) = try makeJournal(directory)
    #expect(try journal.reader.lastRecords(5, through: 120) == SampleJournal.records(116...120))
    #expect(try journal.reader.lastRecords(5, through: 100) == SampleJournal.records(96...100))
    let oldest = try #require(try journal.reader.oldestRetainedVersion())
    #expect(try journal.reader.lastRecords(10_000, through: 120) == SampleJournal.records(oldest...120))
  }

  @Test func outOfRange() throws {
    let directory = try TemporaryDirectory()
    let (journal, _) = try makeJournal(directory)
    let oldest = try #require(try journal.reader.oldestRetainedVersion())
    #expect(throws: JournalError.versionNotRetained(requested: 1, oldestRetained: oldest)) {
      try journal.reader.records(from: 1, through: 100)
    }
    #expect(throws: JournalError.versionNotWritten(requested: 130, last: 120)) {
      try journal.reader.records(from: 100, through: 130)
    }
  }

  /// The state at each retained version is the snapshot plus the patches up
  /// to it; versions before the snapshot are gone.
  @Test func stateAtVersion() throws {
    let directory = try TemporaryDirectory()
    let (journal, _) = try makeJournal(directory)
    for version: UInt64 in [80, 81, 99, 120] {
      #expect(try journal.reader.state(at: version, initialState: .null) == SampleJournal.state(at: version))
    }
    #expect(throws: JournalError.versionNotRetained(requested: 79, oldestRetained: 80)) {
      try journal.reader.state(at: 79, initialState: .null)
    }
    #expect(throws: JournalError.versionNotWritten(requested: 121, last: 120)) {
      try journal.reader.state(at: 121, initialState: .null)
    }
  }

  /// Without a snapshot, a journal that starts at version 1 replays from the
  /// initial state.
  @Test func stateFromTheStart() throws {
    let directory = try TemporaryDirectory()
    try Journals.write(directory.journal, through: 30)
    let reader = JournalReader(directory: directory.journal)
    #expect(try reader.state(at: 0, initialState: SampleJournal.initialState) == SampleJournal.initialState)
    #expect(try reader.state(at: 17, initialState: SampleJournal.initialState) == SampleJournal.state(at: 17))
  }

  /// Reading while another thread appends and rotates: every read up to the
  /// durable version succeeds and returns exactly those records.
  @Test func readsWhileAppending() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(sync: .never, segmentSizeLimit: 8192))
    try writer.append(SampleJournal.records(1...10))
    let done = DispatchSemaphore(value: 0)
    let appender = Thread {
      for start in stride(from: UInt64(11), through: 2000, by: 10) {
        // Checked below: lastVersion is 2000 only if every append succeeded.
        _ = try? writer.append(SampleJournal.records(start...start + 9))
      }
      done.signal()
    }
    appender.start()
    var reads = 0
    while done.wait(timeout: .now()) == .timedOut || reads == 0 {
      let through = writer.progress.lastVersion
      let records = try journal.reader.lastRecords(7, through: through)
      #expect(records == SampleJournal.records(through - 6...through))
      reads += 1
    }
    #expect(writer.progress.lastVersion == 2000)
    #expect(try journal.reader.lastRecords(3, through: 2000) == SampleJournal.records(1998...2000))
  }

  /// A half-written batch past `through` (an append in progress) is not an
  /// error; damage before it is.
  @Test func tailBeingWritten() throws {
    let directory = try TemporaryDirectory()
    let segment = try Journals.write(directory.journal, through: 10)[0]
    let bytes = try Files.read(segment)
    let partial = Array(RecordFormat.encode(SampleJournal.record(11)).prefix(30))
    try Files.write(bytes + partial, to: segment)
    let reader = JournalReader(directory: directory.journal)
    #expect(try reader.records(from: 1, through: 10) == SampleJournal.records(1...10))
    var damaged = bytes
    damaged[try Journals.recordOffsets(segment)[4] + 20] ^= 1
    try Files.write(damaged, to: segment)
    #expect(throws: JournalError.self) { try reader.records(from: 1, through: 10) }
    #expect(try reader.records(from: 1, through: 4) == SampleJournal.records(1...4))
  }
}
