import Dispatch
import Foundation
import Glibc
import JournalTestChild
import Synchronization
import TestSupport
import Testing

@testable import Journal

@Suite(.ownThreads) struct JournalReaderTests {
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
  /// last version written succeeds and returns exactly those records.
  ///
  /// The two threads are paced by each other, not by the clock: after each
  /// batch the appender waits until a read has begun at it, then appends the
  /// next while that read goes on. So every batch is read (however the
  /// threads are scheduled), and reads run while appends do.
  @Test func readsWhileAppending() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(sync: .never, segmentSizeLimit: 8192))
    try writer.append(SampleJournal.records(1...10))
    let batches = Array(stride(from: UInt64(11), through: 2000, by: 10))
    /// The version the latest read began at.
    let readBegunAt = Atomic<UInt64>(0)
    let readerGone = Atomic(false)
    let appenderDone = Atomic(false)
    let appendFailure = Mutex<String?>(nil)
    let appender = Thread {
      defer { appenderDone.store(true, ordering: .releasing) }
      for start in batches {
        do {
          try writer.append(SampleJournal.records(start...start + 9))
        } catch {
          appendFailure.withLock { $0 = "\(error)" }
          return
        }
        while readBegunAt.load(ordering: .acquiring) < start + 9 && !readerGone.load(ordering: .acquiring) {
          sched_yield()
        }
      }
    }
    appender.start()
    var readAt = Set<UInt64>()
    var overlapping = 0
    do {
      defer { readerGone.store(true, ordering: .releasing) }
      while !appenderDone.load(ordering: .acquiring) {
        let through = writer.progress.lastVersion
        readBegunAt.store(through, ordering: .releasing)
        let records = try journal.reader.lastRecords(7, through: through)
        #expect(records == SampleJournal.records(through - 6...through))
        if writer.progress.lastVersion != through { overlapping += 1 }
        readAt.insert(through)
      }
    }
    #expect(appendFailure.withLock { $0 } == nil)
    #expect(writer.progress.lastVersion == 2000)
    #expect(try journal.reader.lastRecords(3, through: 2000) == SampleJournal.records(1998...2000))
    let unread = batches.map { $0 + 9 }.filter { !readAt.contains($0) }
    #expect(unread == [], "batches never read")
    #expect(overlapping > 0, "no read ran while a batch was appended")
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
