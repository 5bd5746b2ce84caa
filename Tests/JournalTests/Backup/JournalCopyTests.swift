import Foundation
import Glibc
import JSON
import JournalTestChild
import Synchronization
import TestSupport
import Testing

@testable import Journal

/// A copy of a journal taken while it is written and compacted holds a
/// whole prefix of its history, and a restore brings a journal back to any
/// version of a copy, with a new epoch after it (docs/OPERATIONS.md,
/// "Backup" and "Restore").
@Suite(.ownThreads) struct JournalCopyTests {
  /// Versions 1…`last` in batches of 10, with a snapshot every `snapshotEvery`
  /// versions, in segments of about 4 KiB.
  private static func write(_ directory: String, through last: UInt64, snapshotEvery: UInt64) throws {
    let journal = try JournalDirectory(path: directory)
    let recovered = try journal.recover()
    let writer = try journal.openWriter(
      after: recovered, epoch: "e1", configuration: .init(sync: .never, segmentSizeLimit: 4096))
    var version = recovered.lastVersion
    while version < last {
      let end = min(last, version + 10)
      try writer.append(SampleJournal.records(version + 1...end))
      version = end
      if version % snapshotEvery == 0 {
        try journal.writeSnapshot(version: version, state: SampleJournal.state(at: version), epoch: "e1")
      }
    }
    try writer.close()
  }

  /// The copy's state at its last version, checked record by record.
  private static func checkCopy(_ directory: String) throws -> UInt64 {
    let (recovered, records) = try Journals.recover(directory)
    let base = recovered.snapshot?.version ?? 0
    let expected: [UInt64] = recovered.lastVersion > base ? Array((base + 1)...recovered.lastVersion) : []
    #expect(records.map(\.version) == expected)
    let state = try recovered.replay(initialState: SampleJournal.initialState)
    #expect(state == SampleJournal.state(at: recovered.lastVersion))
    return recovered.lastVersion
  }

  @Test func copiesTakenWhileTheJournalIsWrittenAndCompactedEachHoldAWholePrefix() throws {
    let source = try TemporaryDirectory(prefix: "copy-source")
    #expect(mkdir(source.journal, 0o700) == 0)
    let done = Atomic<Bool>(false)
    let failure = Mutex<String?>(nil)
    let writer = Thread {
      do {
        try Self.write(source.journal, through: 4000, snapshotEvery: 50)
      } catch {
        failure.withLock { $0 = "\(error)" }
      }
      done.store(true, ordering: .releasing)
    }
    writer.start()
    var copies = 0
    var last: UInt64 = 0
    while !done.load(ordering: .acquiring) || copies < 3 {
      let copy = try TemporaryDirectory(prefix: "copy")
      let result = try JournalCopy.copy(from: source.journal, to: copy.path)
      let through = try Self.checkCopy(copy.path)
      #expect(result.through == through)
      #expect(result.from <= through)
      #expect(result.epoch == "e1" || (through == 0 && result.epoch == nil))
      #expect(through >= last, "a later copy holds at least what an earlier one did")
      last = through
      copies += 1
    }
    #expect(failure.withLock { $0 } == nil)
    let final = try TemporaryDirectory(prefix: "copy")
    _ = try JournalCopy.copy(from: source.journal, to: final.path)
    #expect(try Self.checkCopy(final.path) == 4000, "a copy after the writer closed holds every version")
    #expect(copies >= 3)
  }

  @Test func aRecordBeingAppendedIsLeftOutAndTheSourceIsNotChanged() throws {
    let source = try TemporaryDirectory(prefix: "copy-source")
    try Journals.write(source.journal, through: 25)
    let newest = try #require(try Journals.segments(in: source.journal).last)
    let whole = try Files.read(newest)
    // The first 20 bytes of a record, as a crash or an append under way
    // leaves them.
    var partial = EncodedRecords()
    partial.append(SampleJournal.record(26))
    try Files.write(whole + partial.bytes.prefix(20), to: newest)
    let before = try Files.contents(of: source.journal)
    let copy = try TemporaryDirectory(prefix: "copy")
    let result = try JournalCopy.copy(from: source.journal, to: copy.path)
    #expect(result.through == 25)
    #expect(try Self.checkCopy(copy.path) == 25)
    #expect(try Files.contents(of: source.journal) == before)
    #expect(try Files.read(copy.path + "/" + (newest.split(separator: "/").last.map(String.init) ?? "")) == whole)
  }

  @Test func damageBeforeWholeRecordsIsReportedNotCopiedAway() throws {
    let source = try TemporaryDirectory(prefix: "copy-source")
    try Journals.write(source.journal, through: 25)
    let newest = try #require(try Journals.segments(in: source.journal).last)
    let offsets = try Journals.recordOffsets(newest)
    var bytes = try Files.read(newest)
    bytes[offsets[offsets.count / 2] + 14] ^= 0xFF
    try Files.write(bytes, to: newest)
    let copy = try TemporaryDirectory(prefix: "copy")
    #expect {
      try JournalCopy.copy(from: source.journal, to: copy.path)
    } throws: { error in
      guard case JournalError.damaged(let damage)? = error as? JournalError else { return false }
      return damage.path == newest && damage.validRecordAfter != nil
    }
  }

  @Test func aRestoreGoesBackToAnyVersionOfTheCopyWithANewEpochAfterIt() throws {
    let source = try TemporaryDirectory(prefix: "copy-source")
    try Self.write(source.journal, through: 100, snapshotEvery: 40)
    let copy = try TemporaryDirectory(prefix: "copy")
    let result = try JournalCopy.copy(from: source.journal, to: copy.path)
    #expect(result.from == 80 && result.through == 100)

    for version: UInt64 in [80, 81, 93, 100] {
      let target = try TemporaryDirectory(prefix: "restored")
      let restored = try {
        let journal = try JournalDirectory(path: target.journal)
        return try JournalRestore.restore(from: copy.path, into: journal, through: version, epoch: "e2")
      }()
      #expect(restored.lastVersion == version)
      #expect(restored.epoch == "e2")
      #expect(try restored.replay(initialState: SampleJournal.initialState) == SampleJournal.state(at: version))
      // The journal goes on from there in the new epoch.
      try Journals.write(target.journal, through: version + 5, epoch: "e2")
      let (again, records) = try Journals.recover(target.journal)
      #expect(again.lastVersion == version + 5 && again.epoch == "e2")
      #expect(records.last?.version == version + 5)
    }

    let target = try TemporaryDirectory(prefix: "restored")
    let journal = try JournalDirectory(path: target.journal)
    for version: UInt64 in [79, 101] {
      #expect(throws: JournalError.self) {
        try JournalRestore.restore(from: copy.path, into: journal, through: version, epoch: "e2")
      }
    }
    #expect(try Files.names(in: target.journal) == ["lock"], "a refused restore writes nothing")
    _ = try JournalRestore.restore(from: copy.path, into: journal, through: nil, epoch: "e2")
    #expect(throws: JournalError.self, "a journal is never restored over") {
      try JournalRestore.restore(from: copy.path, into: journal, through: nil, epoch: "e3")
    }
  }

  @Test func aRestoreNamesASegmentOfTheCopyThatIsNotOne() throws {
    let source = try TemporaryDirectory(prefix: "copy-source")
    try Self.write(source.journal, through: 30, snapshotEvery: 1000)
    let copy = try TemporaryDirectory(prefix: "copy")
    _ = try JournalCopy.copy(from: source.journal, to: copy.path)
    let segment = try #require(try Journals.segments(in: copy.path).first)
    var bytes = try Files.read(segment)
    for index in 0..<8 { bytes[index] = UInt8(ascii: "x") }
    try Files.write(bytes, to: segment)
    let target = try TemporaryDirectory(prefix: "restored")
    let journal = try JournalDirectory(path: target.journal)
    #expect {
      try JournalRestore.restore(from: copy.path, into: journal, through: nil, epoch: "e2")
    } throws: { error in
      guard case JournalError.foreignFile(let path, _)? = error as? JournalError else { return false }
      return path == segment
    }
    #expect(try Files.names(in: target.journal) == ["lock"], "a refused restore writes nothing")
  }
}
