import Dispatch
import Glibc
import JournalTestChild
import Platform
import Synchronization
import TestSupport
import Testing

@testable import Journal

@Suite(.ownThreads) struct JournalWriterTests {
  /// Batches appended under each policy are all there after reopening.
  @Test(arguments: SyncPolicy.allCases)
  func appendReopenRecover(policy: SyncPolicy) throws {
    let directory = try TemporaryDirectory()
    try Journals.write(directory.journal, through: 95, batch: 7, configuration: .init(sync: policy))
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...95))
    #expect(recovered.lastVersion == 95)
    #expect(recovered.report.events.isEmpty)
    #expect(try recovered.replay(initialState: SampleJournal.initialState) == SampleJournal.state(at: 95))
  }

  /// A reopened writer continues the same segment; more records follow.
  @Test func reopenContinues() throws {
    let directory = try TemporaryDirectory()
    try Journals.write(directory.journal, through: 20)
    let segments = try Journals.write(directory.journal, through: 45)
    #expect(segments.count == 1)
    let (_, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...45))
  }

  /// Another epoch starts a new segment, whose header carries it.
  @Test func newEpochStartsNewSegment() throws {
    let directory = try TemporaryDirectory()
    try Journals.write(directory.journal, through: 20, epoch: "first")
    let segments = try Journals.write(directory.journal, through: 30, epoch: "second")
    #expect(segments.map { $0.hasSuffix("00000000000000000021.journal") } == [false, true])
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...30))
    #expect(recovered.epoch == "second")
  }

  /// Past the size limit, batches go to new segments named by their first
  /// version; a batch is never split.
  @Test func rotation() throws {
    let directory = try TemporaryDirectory()
    let segments = try Journals.write(
      directory.journal, through: 300, batch: 9, configuration: .init(segmentSizeLimit: 4096))
    #expect(segments.count > 5)
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == SampleJournal.records(1...300))
    #expect(recovered.report.segmentsRead == segments)
    for path in segments {
      let first = UInt64(path.split(separator: "/").last!.prefix(20))!
      #expect((first - 1) % 9 == 0, "a segment must begin with a batch: \(path)")
      let size = try Files.read(path).count
      #expect(size <= 4096 || path == segments.last!)
    }
  }

  /// A batch that does not continue the versions is refused; nothing is
  /// written and the writer goes on.
  @Test func versionsMustContinue() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.append(SampleJournal.records(1...3))
    #expect(throws: JournalWriteError.versionOutOfSequence(expected: 4, found: 5, index: 0)) {
      try writer.append(SampleJournal.records(5...6))
    }
    var gap = SampleJournal.records(4...6)
    gap[2].version = 9
    #expect(throws: JournalWriteError.versionOutOfSequence(expected: 6, found: 9, index: 2)) {
      try writer.append(gap)
    }
    try writer.append(SampleJournal.records(4...5))
    #expect(writer.progress.lastVersion == 5)
    try writer.close()
    #expect(try journal.recover().records.map { try $0.decoded() } == SampleJournal.records(1...5))
  }

  @Test func recordTooLargeIsRefused() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(maximumRecordBytes: 300))
    var big = SampleJournal.record(2)
    big.action = .string(String(repeating: "x", count: 400))
    do {
      try writer.append([SampleJournal.record(1), big])
      Issue.record("a record over the limit was accepted")
    } catch {
      guard case .recordTooLarge(2, _, 300) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.writerStillUsable)
    }
    try writer.append(SampleJournal.records(1...2))
    try writer.close()
    #expect(try journal.recover().records.map { try $0.decoded() } == SampleJournal.records(1...2))
  }

  /// Under `always`, every append is durable when it returns; `never` waits
  /// for `sync`; `everySecond` catches up in the background.
  @Test func durability() throws {
    let directory = try TemporaryDirectory()
    for (name, policy) in [("always", SyncPolicy.always), ("never", .never), ("every", .everySecond)] {
      let journal = try JournalDirectory(path: directory.file(name))
      let writer = try journal.openWriter(
        after: try journal.recover(), epoch: "e", configuration: .init(sync: policy, syncInterval: .milliseconds(20)))
      let result = try writer.append(SampleJournal.records(1...5))
      switch policy {
      case .always:
        #expect(result.durable)
        #expect(writer.progress.durableVersion == 5)
      case .never:
        #expect(!result.durable)
        #expect(writer.progress.durableVersion == 0)
        try writer.sync()
        #expect(writer.progress.durableVersion == 5)
      case .everySecond:
        #expect(waitUntil(seconds: 10) { writer.progress.durableVersion == 5 })
      }
      try writer.close()
    }
  }

  /// `write` never syncs, whatever the policy; `syncWritten`, called from
  /// another thread while the next batch is written, makes what was written
  /// before it began durable, and what came after is synced by the next one.
  @Test func writeThenSyncBesideIt() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    let written = try writer.write(SampleJournal.records(1...5))
    #expect(!written.durable)
    #expect(writer.progress.durableVersion == 0)
    let synced = Mutex<Result<UInt64, JournalWriteError>?>(nil)
    let syncing = DispatchGroup()
    DispatchQueue.global().async(group: syncing) {
      let result = Result { () throws(JournalWriteError) in try writer.syncWritten() }
      synced.withLock { $0 = result }
    }
    try writer.write(SampleJournal.records(6...8))
    syncing.wait()
    let first = try #require(synced.withLock { $0 })
    #expect(try first.get() >= 5)
    #expect(try writer.syncWritten() == 8)
    #expect(try writer.syncWritten() == 8, "nothing more to sync")
    try writer.close()
    #expect(try journal.recover().records.map { try $0.decoded() } == SampleJournal.records(1...8))
  }

  /// A sync beside the writer holds the segment's descriptor, not a copy
  /// of it: a rotation and a close meanwhile replace the writer's, and the
  /// one held stays open on the segment it was taken from, which it can
  /// still sync.
  @Test func aHeldSegmentDescriptorOutlivesRotationAndClose() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: .init(segmentSizeLimit: 4096))
    try writer.write(SampleJournal.records(1...3))
    let (held, firstPath) = writer.state.withLock { ($0.descriptor, $0.path) }
    var version: UInt64 = 3
    while writer.currentSegment == firstPath {
      try writer.write(SampleJournal.records(version + 1...version + 1))
      version += 1
    }
    #expect(writer.state.withLock { $0.fd } != held.fd)
    try writer.close()
    #expect(writer.state.withLock { $0.fd } == -1)
    var heldStatus = stat()
    var segmentStatus = stat()
    #expect(fstat(held.fd, &heldStatus) == 0)
    #expect(stat(firstPath, &segmentStatus) == 0)
    #expect(heldStatus.st_ino == segmentStatus.st_ino && heldStatus.st_dev == segmentStatus.st_dev)
    try FileIO.syncData(held.fd, path: firstPath)
    #expect(try journal.recover().records.map { try $0.decoded() } == SampleJournal.records(1...version))
  }

  /// A failed `syncWritten` stops the writer as a failed append does.
  @Test func failedSyncWrittenStopsTheWriter() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.write(SampleJournal.records(1...3))
    try writer.syncWritten()
    try writer.write(SampleJournal.records(4...6))
    try replaceDescriptor(of: writer, with: "/dev/null", flags: O_WRONLY)
    #expect {
      try writer.syncWritten()
    } throws: { error in
      guard case .syncFailed(_, let failure, let versions) = error as? JournalWriteError else { return false }
      return failure.code == EINVAL && versions == 4...6
    }
    #expect(throws: JournalWriteError.refused(since: writer.failure!)) {
      try writer.write(SampleJournal.records(7...7))
    }
    #expect(writer.progress.durableVersion == 3)
  }

  @Test func closedWriterRefuses() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.close()
    try writer.close()
    #expect(throws: JournalWriteError.closed(path: writer.currentSegment)) {
      try writer.append(SampleJournal.records(1...1))
    }
  }

  /// A failed `fdatasync` is never retried: the writer refuses every later
  /// append, saying why and that a restart recovers. The failure is real:
  /// the segment's descriptor is replaced by one of /dev/null, which cannot
  /// be synced (EINVAL).
  @Test func failedSyncStopsTheWriter() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.append(SampleJournal.records(1...3))
    try replaceDescriptor(of: writer, with: "/dev/null", flags: O_WRONLY)
    do {
      try writer.append(SampleJournal.records(4...6))
      Issue.record("the sync of /dev/null succeeded")
    } catch {
      guard case .syncFailed(_, let failure, let versions) = error else {
        Issue.record("expected syncFailed, got \(error)")
        return
      }
      #expect(failure.code == EINVAL)
      #expect(versions == 4...6)
      #expect(!error.writerStillUsable)
    }
    do {
      try writer.append(SampleJournal.records(4...4))
      Issue.record("a failed writer accepted an append")
    } catch {
      guard case .refused(.syncFailed) = error else {
        Issue.record("expected refused, got \(error)")
        return
      }
      #expect(error.description.contains("refused since an earlier failure"))
      #expect(error.description.contains("Restart the daemon"))
      #expect(error.description.contains("fdatasync"))
    }
    #expect(throws: JournalWriteError.self) { try writer.sync() }
    #expect(writer.failure != nil)
    #expect(writer.progress.durableVersion == 3)
  }

  /// Under `everySecond`, a failed background sync stops the writer too: the
  /// next append is refused.
  @Test func failedBackgroundSyncStopsTheWriter() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e",
      configuration: .init(sync: .everySecond, syncInterval: .milliseconds(20)))
    try writer.append(SampleJournal.records(1...3))
    #expect(waitUntil(seconds: 10) { writer.progress.durableVersion == 3 })
    try replaceDescriptor(of: writer, with: "/dev/null", flags: O_WRONLY)
    try writer.append(SampleJournal.records(4...6))
    #expect(waitUntil(seconds: 10) { writer.failure != nil })
    guard case .syncFailed(_, let failure, let versions)? = writer.failure else {
      Issue.record("expected a sync failure, got \(String(describing: writer.failure))")
      return
    }
    #expect(failure.code == EINVAL)
    #expect(versions == 4...6)
    #expect(throws: JournalWriteError.refused(since: writer.failure!)) {
      try writer.append(SampleJournal.records(7...7))
    }
    #expect(writer.progress.durableVersion == 3)
  }

  /// A write that fails for another reason than space stops the writer too.
  @Test func failedWriteStopsTheWriter() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try writer.append(SampleJournal.records(1...3))
    try replaceDescriptor(of: writer, with: "/dev/null", flags: O_RDONLY)
    do {
      try writer.append(SampleJournal.records(4...6))
      Issue.record("a write to a read-only descriptor succeeded")
    } catch {
      guard case .ioFailed(let failure, 4...6) = error else {
        Issue.record("expected ioFailed, got \(error)")
        return
      }
      #expect(failure.code == EBADF)
    }
    #expect(writer.failure != nil)
    do {
      try writer.append(SampleJournal.records(4...4))
      Issue.record("a failed writer accepted an append")
    } catch {
      #expect(!error.writerStillUsable)
    }
  }

  /// A no-space failure whose bytes cannot be cut off again (/dev/full fails
  /// writes with ENOSPC and cannot be truncated) leaves a journal the writer
  /// cannot vouch for: it stops instead of reporting a plain no-space.
  @Test func noSpaceWithoutCutStopsTheWriter() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    try replaceDescriptor(of: writer, with: "/dev/full", flags: O_WRONLY)
    do {
      try writer.append(SampleJournal.records(1...2))
      Issue.record("a write to /dev/full succeeded")
    } catch {
      guard case .ioFailed(let failure, _) = error else {
        Issue.record("expected ioFailed from the failed cut, got \(error)")
        return
      }
      #expect(failure.operation.hasPrefix("ftruncate"))
    }
    #expect(writer.failure != nil)
  }

  /// Two owners of one journal would interleave records: the second is
  /// refused with the first's pid.
  @Test func directoryIsLocked() throws {
    let directory = try TemporaryDirectory()
    let first = try JournalDirectory(path: directory.journal)
    #expect(throws: JournalError.locked(path: directory.journal + "/lock", holder: getpid())) {
      _ = try JournalDirectory(path: directory.journal)
    }
    _ = first
  }

  /// The writer continues only the segment recovery saw.
  @Test func changedTailIsRefused() throws {
    let directory = try TemporaryDirectory()
    try Journals.write(directory.journal, through: 5)
    let journal = try JournalDirectory(path: directory.journal)
    let recovered = try journal.recover()
    let segment = try Journals.segments(in: directory.journal)[0]
    try Files.write(try Files.read(segment) + [0, 0, 0], to: segment)
    do {
      _ = try journal.openWriter(after: recovered, epoch: "test")
      Issue.record("the writer continued a segment that changed after recovery")
    } catch {
      guard case .changedSinceRecovery(let path, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == segment)
    }
  }

  /// Swaps the writer's segment descriptor for one of `path`, so that the
  /// next system calls on it fail for real.
  private func replaceDescriptor(of writer: JournalWriter, with path: String, flags: Int32) throws {
    let replacement = open(path, flags | O_CLOEXEC)
    guard replacement >= 0 else { throw TestFailure("open \(path): errno \(errno)") }
    defer { close(replacement) }
    let fd = writer.state.withLock { $0.fd }
    guard dup2(replacement, fd) == fd else { throw TestFailure("dup2: errno \(errno)") }
  }
}
