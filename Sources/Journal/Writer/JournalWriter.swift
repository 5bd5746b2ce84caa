import Glibc
import Platform
import Synchronization

/// Appends batches of records to the journal's newest segment: one write
/// and, under ``SyncPolicy/always``, one `fdatasync` per batch.
///
/// ## Where to call it
///
/// The store loop calls ``write(_:)`` itself, once per batch of actions it
/// has reduced, and under ``SyncPolicy/always`` has ``syncWritten()`` run on
/// a thread beside it while it reduces the next batch; it acknowledges and
/// publishes a batch's versions once they are durable. The next batch is
/// written when the sync returns, so the busier the daemon, the more actions
/// share a sync (group commit). ``append(_:)`` writes and syncs in one call.
///
/// The writer is `Sendable` and its methods are safe from any thread (a
/// mutex serialises them), so it can still be moved to another thread, and
/// the `everySecond` syncer and ``progress`` readers use it concurrently.
///
/// ## Failures
///
/// See ``JournalWriteError``: running out of space rejects one batch and
/// leaves the journal valid; any other write or sync failure stops the
/// writer for good, and a restart recovers from the journal.
public final class JournalWriter: Sendable {
  /// How the writer syncs, rotates and limits records.
  public struct Configuration: Sendable, Hashable {
    /// When appends are made durable.
    public var sync: SyncPolicy
    /// A new segment is started when the next batch would take the current
    /// one past this size (a single batch larger than this gets a segment of
    /// its own, as a batch is never split).
    public var segmentSizeLimit: Int
    /// The largest payload of one record; a larger one rejects its batch.
    public var maximumRecordBytes: Int
    /// How often the `everySecond` policy syncs (tests shorten it).
    public var syncInterval: Duration

    public init(
      sync: SyncPolicy = .always, segmentSizeLimit: Int = 64 << 20, maximumRecordBytes: Int = 64 << 20,
      syncInterval: Duration = .seconds(1)
    ) {
      self.sync = sync
      self.segmentSizeLimit = segmentSizeLimit
      self.maximumRecordBytes = maximumRecordBytes
      self.syncInterval = syncInterval
    }
  }

  /// What one append did.
  public struct AppendResult: Sendable, Hashable {
    /// The versions written (empty for an empty batch).
    public var versions: Range<UInt64>
    /// Bytes written (headers and payloads).
    public var bytes: Int
    /// Whether they are already synced (always true under `always`).
    public var durable: Bool
  }

  /// The journal directory.
  public let directory: String
  public let configuration: Configuration
  /// The lineage written into new segments' headers.
  public let epoch: String

  /// The largest encoding buffer kept between appends.
  static let retainedBufferCapacity = 16 << 20

  /// Keeps the directory locked for as long as the writer lives.
  private let lock: DirectoryLock
  let state: Mutex<State>
  private let syncer: BackgroundSync?

  /// Everything that changes, guarded by the mutex.
  struct State: ~Copyable {
    var descriptor: SegmentDescriptor
    var path: String
    var segmentFirstVersion: UInt64
    /// The segment's length: the offset where the next batch goes.
    var size: Int
    var headerLength: Int
    var progress: JournalProgress
    /// Why writes are refused, once something failed.
    var failure: JournalWriteError?
    var closed = false
    /// Reused for encoding batches.
    var buffer: [UInt8] = []
    /// The next ``syncWritten()`` fails as on an I/O error (debug builds'
    /// tests only).
    var failNextSync = false

    /// The current segment's descriptor.
    var fd: Int32 { descriptor.fd }
  }

  init(
    directory: String, lock: DirectoryLock, recovered: RecoveredJournal, epoch: String, configuration: Configuration
  ) throws(JournalError) {
    if let problem = Epoch.problem(epoch) { throw .invalidArgument("cannot open the journal writer: \(problem)") }
    guard configuration.maximumRecordBytes > 0, configuration.maximumRecordBytes <= RecordFormat.maximumPayloadLength
    else {
      throw .invalidArgument(
        "maximumRecordBytes must be between 1 and \(RecordFormat.maximumPayloadLength), "
          + "not \(configuration.maximumRecordBytes)")
    }
    guard configuration.segmentSizeLimit > 0 else {
      throw .invalidArgument("segmentSizeLimit must be positive, not \(configuration.segmentSizeLimit)")
    }
    self.directory = directory
    self.configuration = configuration
    self.epoch = epoch
    self.lock = lock
    let segment = try Self.openSegment(after: recovered, epoch: epoch, limit: configuration.segmentSizeLimit)
    state = Mutex(
      State(
        descriptor: SegmentDescriptor(segment.fd), path: segment.path, segmentFirstVersion: segment.firstVersion,
        size: segment.size,
        headerLength: segment.headerLength, progress: recovered.progress))
    let box = WeakWriter()
    do {
      syncer =
        configuration.sync == .everySecond
        ? try BackgroundSync(interval: configuration.syncInterval) {
          guard let writer = box.writer else { return false }
          writer.backgroundSync()
          return true
        } : nil
    } catch {
      // The segment's descriptor is closed with the state it is in.
      throw .system(SystemFailure("start the journal-sync thread", path: directory, code: error.errno))
    }
    box.writer = self
  }

  /// The segment's descriptor is closed with the state that holds it.
  deinit {
    syncer?.requestStop()
  }

  // MARK: Appending

  /// Writes `records`, which must continue the journal's versions, as one
  /// batch: one write, then under ``SyncPolicy/always`` one `fdatasync`.
  ///
  /// When it returns, the records are written (and, under `always`,
  /// durable): the daemon may acknowledge and publish their versions. When it
  /// throws, none of the records may be acknowledged; see
  /// ``JournalWriteError/writerStillUsable`` for whether later calls can
  /// succeed.
  @discardableResult
  public func append(_ records: [JournalRecord]) throws(JournalWriteError) -> AppendResult {
    try state.withLock { state throws(JournalWriteError) -> AppendResult in
      try append(records, syncing: configuration.sync == .always, state: &state)
    }
  }

  /// Writes `records` as ``append(_:)`` does, but never syncs them, whatever
  /// the policy: under ``SyncPolicy/always`` the caller then makes them
  /// durable with ``syncWritten()``, which may run on another thread while
  /// the caller goes on (the store loop reduces the next batch meanwhile).
  /// They must not be acknowledged before that returns.
  @discardableResult
  public func write(_ records: [JournalRecord]) throws(JournalWriteError) -> AppendResult {
    try state.withLock { state throws(JournalWriteError) -> AppendResult in
      try append(records, syncing: false, state: &state)
    }
  }

  private func append(
    _ records: [JournalRecord], syncing: Bool, state: inout State
  ) throws(JournalWriteError) -> AppendResult {
    var buffer: [UInt8] = []
    swap(&buffer, &state.buffer)
    var encoded = EncodedRecords(reusing: buffer)
    for record in records { encoded.append(record) }
    defer {
      // One huge batch should not pin its buffer for the writer's lifetime.
      if encoded.bytes.capacity <= Self.retainedBufferCapacity { state.buffer = encoded.bytes }
    }
    return try write(encoded, syncing: syncing, state: &state)
  }

  /// Writes records ``EncodedRecords`` holds, which must continue the
  /// journal's versions, as ``write(_:)-([JournalRecord])`` writes records:
  /// one write, never synced here.
  @discardableResult
  public func write(_ records: EncodedRecords) throws(JournalWriteError) -> AppendResult {
    try state.withLock { state throws(JournalWriteError) -> AppendResult in
      try write(records, syncing: false, state: &state)
    }
  }

  /// Writes `records` if they continue the journal's versions and none is
  /// over the size limit; else refuses them all, writing nothing.
  private func write(
    _ records: EncodedRecords, syncing: Bool, state: inout State
  ) throws(JournalWriteError) -> AppendResult {
    if let failure = state.failure { throw .refused(since: failure) }
    if state.closed { throw .closed(path: state.path) }
    let last = state.progress.lastVersion
    guard let first = records.firstVersion else {
      return AppendResult(
        versions: last + 1..<last + 1, bytes: 0, durable: state.progress.durableVersion >= last)
    }
    if first != last &+ 1 {
      throw .versionOutOfSequence(expected: last &+ 1, found: first, index: 0)
    }
    if let (index, version) = records.outOfSequence {
      throw .versionOutOfSequence(expected: last &+ 1 &+ UInt64(index), found: version, index: index)
    }
    if let largest = records.largest, largest.bytes > configuration.maximumRecordBytes {
      throw .recordTooLarge(version: largest.version, bytes: largest.bytes, limit: configuration.maximumRecordBytes)
    }
    return try write(records.bytes, versions: first...(last + UInt64(records.count)), syncing: syncing, state: &state)
  }

  /// Writes `bytes`, the records of `versions`, at the end of the current
  /// segment (a new one first if it would grow past its limit), and under
  /// `syncing` makes them durable.
  private func write(
    _ bytes: [UInt8], versions: ClosedRange<UInt64>, syncing: Bool, state: inout State
  ) throws(JournalWriteError) -> AppendResult {
    let first = versions.lowerBound
    let count = bytes.count

    if state.size > state.headerLength, state.size + count > configuration.segmentSizeLimit {
      try rotate(to: first, versions: versions, state: &state)
    }

    let (fd, offset, path) = (state.fd, state.size, state.path)
    let failed = bytes.withUnsafeBytes { FileIO.write($0, to: fd, at: offset, path: path) }
    if let failure = failed?.failure {
      // Whatever part of the batch reached the file is cut off, so the
      // segment ends with a whole record again.
      let cut = Result { () throws(SystemFailure) in try FileIO.truncate(fd, to: offset, path: path) }
      switch (failure.isNoSpace, cut) {
      case (true, .success):
        throw .noSpace(path: path, offset: offset, failure: failure, versions: versions)
      case (true, .failure(let cutFailure)):
        // The batch's bytes may still be in the file: the journal can no
        // longer be vouched for, so this is not a plain rejection.
        let failure = SystemFailure(
          "\(cutFailure.operation) after running out of space (\(SystemFailure.describe(failure.code)))",
          path: cutFailure.path, code: cutFailure.code)
        throw fail(.ioFailed(failure: failure, versions: versions), state: &state)
      case (false, _):
        throw fail(.ioFailed(failure: failure, versions: versions), state: &state)
      }
    }
    state.size += count
    state.progress.lastVersion = versions.upperBound
    state.progress.bytesSinceSnapshot += count

    if syncing {
      try syncData(state: &state)
    }
    return AppendResult(
      versions: versions.lowerBound..<versions.upperBound + 1, bytes: count,
      durable: state.progress.durableVersion >= versions.upperBound)
  }

  /// Closes the current segment (synced, so only the newest segment can
  /// hold a torn record) and continues in a new one starting at `version`.
  private func rotate(
    to version: UInt64, versions: ClosedRange<UInt64>, state: inout State
  ) throws(JournalWriteError) {
    try syncData(state: &state)
    let segment: OpenSegment
    do {
      segment = try SegmentCreation.create(
        directory: directory, firstVersion: version, epoch: epoch, replacingEmpty: nil)
    } catch {
      if error.isNoSpace {
        throw .noSpace(path: directory, offset: 0, failure: error, versions: versions)
      }
      throw fail(.ioFailed(failure: error, versions: versions), state: &state)
    }
    state.descriptor = SegmentDescriptor(segment.fd)
    state.path = segment.path
    state.segmentFirstVersion = segment.firstVersion
    state.size = segment.size
    state.headerLength = segment.headerLength
  }

  /// Syncs the current segment if anything in it is not yet durable.
  private func syncData(state: inout State) throws(JournalWriteError) {
    let target = state.progress.lastVersion
    guard target > state.progress.durableVersion else { return }
    do {
      try FileIO.syncData(state.fd, path: state.path)
    } catch {
      throw fail(
        .syncFailed(path: state.path, failure: error, versions: (state.progress.durableVersion + 1)...target),
        state: &state)
    }
    state.progress.durableVersion = target
  }

  /// Enters the failed state: `error` is the reason every later append gives.
  private func fail(_ error: JournalWriteError, state: inout State) -> JournalWriteError {
    if state.failure == nil { state.failure = error }
    return error
  }

  // MARK: Syncing and closing

  /// Syncs everything appended so far now (e.g. before a clean shutdown
  /// under `everySecond` or `never`). Does nothing if it is all durable.
  public func sync() throws(JournalWriteError) {
    try state.withLock { state throws(JournalWriteError) in
      if let failure = state.failure { throw .refused(since: failure) }
      if state.closed { throw .closed(path: state.path) }
      try syncData(state: &state)
    }
  }

  /// Syncs and closes the segment and stops the background syncer (under
  /// every policy: the daemon calls it on SIGTERM). Later appends throw
  /// ``JournalWriteError/closed(path:)``. A writer that has failed is closed
  /// without a sync (``failure`` says why). Calling it again does nothing.
  public func close() throws(JournalWriteError) {
    syncer?.stop()
    try state.withLock { state throws(JournalWriteError) in
      guard !state.closed else { return }
      defer {
        state.descriptor = .none
        state.closed = true
      }
      if state.failure == nil { try syncData(state: &state) }
    }
  }

  /// Makes everything written so far durable, without holding the mutex
  /// during the `fdatasync` (writes go on meanwhile, from any thread),
  /// holding the segment's ``SegmentDescriptor`` so that a rotation may
  /// replace it meanwhile; returns the durable version. A failed sync stops
  /// the writer for good, as in ``append(_:)``.
  @discardableResult
  public func syncWritten() throws(JournalWriteError) -> UInt64 {
    typealias Job = (descriptor: SegmentDescriptor, version: UInt64, path: String, from: UInt64, fails: Bool)
    let job = try state.withLock { state throws(JournalWriteError) -> Job? in
      if let failure = state.failure { throw .refused(since: failure) }
      if state.closed { throw .closed(path: state.path) }
      guard state.progress.lastVersion > state.progress.durableVersion else { return nil }
      defer { state.failNextSync = false }
      return (
        state.descriptor, state.progress.lastVersion, state.path, state.progress.durableVersion + 1,
        state.failNextSync
      )
    }
    guard let job else { return progress.durableVersion }
    let result =
      job.fails
      ? .failure(SystemFailure("fdatasync", path: job.path, code: EIO))
      : Result { () throws(SystemFailure) in try FileIO.syncData(job.descriptor.fd, path: job.path) }
    return try state.withLock { state throws(JournalWriteError) -> UInt64 in
      switch result {
      case .success:
        state.progress.durableVersion = max(state.progress.durableVersion, job.version)
        return state.progress.durableVersion
      case .failure(let failure):
        throw fail(.syncFailed(path: job.path, failure: failure, versions: job.from...job.version), state: &state)
      }
    }
  }

  #if DEBUG
    /// Makes the next ``syncWritten()`` fail as `fdatasync` does on an I/O
    /// error, for tests of what the daemon does then; not in release builds.
    public func failNextSyncForTesting() {
      state.withLock { $0.failNextSync = true }
    }
  #endif

  /// The `everySecond` tick: ``syncWritten()``, whose failure the next
  /// append reports.
  func backgroundSync() {
    _ = try? syncWritten()
  }

  // MARK: Reading the state

  /// The versions written and synced, and the counters for ``SnapshotPolicy``.
  public var progress: JournalProgress {
    state.withLock { $0.progress }
  }

  /// The failure that stopped the writer, if one did.
  public var failure: JournalWriteError? {
    state.withLock { $0.failure }
  }

  /// Whether the writer has not been closed (it may have failed).
  var isOpen: Bool {
    state.withLock { !$0.closed }
  }

  /// The segment being appended to.
  public var currentSegment: String {
    state.withLock { $0.path }
  }

  /// Records that a snapshot of `version` (of `bytes` bytes) was begun when
  /// the byte counter read `bytesAtStart`.
  func noteSnapshot(version: UInt64, bytes: Int, bytesAtStart: Int) {
    state.withLock { state in
      guard version >= state.progress.snapshotVersion ?? 0 else { return }
      state.progress.snapshotVersion = version
      state.progress.snapshotBytes = bytes
      state.progress.bytesSinceSnapshot = max(0, state.progress.bytesSinceSnapshot - bytesAtStart)
    }
  }

  // MARK: Opening

  /// The segment to append to after `recovered`: its newest segment if that
  /// is of the same epoch and format, ends at the recovered version and is
  /// not full;
  /// else a new one starting at the next version (after syncing the newest,
  /// so that only the new one can ever hold a torn record).
  private static func openSegment(
    after recovered: RecoveredJournal, epoch: String, limit: Int
  ) throws(JournalError) -> OpenSegment {
    let next = recovered.lastVersion + 1
    if let tail = recovered.tail, tail.header.epoch == epoch, tail.header.format == SegmentHeader.formatVersion,
      tail.lastVersion == recovered.lastVersion, tail.end < limit
    {
      return try reopen(tail)
    }
    do {
      if let tail = recovered.tail {
        let fd = try FileIO.open(tail.path, O_RDONLY)
        defer { FileIO.close(fd) }
        try FileIO.syncData(fd, path: tail.path)
      }
      // An empty newest segment of another epoch, starting at the same
      // version, is replaced; any other file of that name is refused.
      let replacing = recovered.tail.flatMap { tail in
        tail.header.firstVersion == next && tail.end == tail.headerLength ? tail.path : nil
      }
      return try SegmentCreation.create(
        directory: recovered.directory, firstVersion: next, epoch: epoch, replacingEmpty: replacing)
    } catch {
      throw .system(error)
    }
  }

  /// Reopens the recovered newest segment to continue it, after checking it
  /// is the same file with the same length as recovery left it, and syncing
  /// it (the previous process may have died before its last batch was synced).
  private static func reopen(_ tail: RecoveredJournal.Tail) throws(JournalError) -> OpenSegment {
    let fd: Int32
    do {
      fd = try FileIO.open(tail.path, O_WRONLY)
    } catch {
      throw .system(error)
    }
    let identity: FileIdentity
    let size: Int
    do throws(SystemFailure) {
      identity = try FileIO.identity(fd, path: tail.path)
      size = try FileIO.fileSize(fd, path: tail.path)
    } catch {
      FileIO.close(fd)
      throw .system(error)
    }
    guard identity == tail.identity, size == tail.end else {
      FileIO.close(fd)
      throw .changedSinceRecovery(
        path: tail.path,
        reason: identity == tail.identity
          ? "it is \(size) bytes long, recovery left \(tail.end)" : "it was replaced by another file")
    }
    do throws(SystemFailure) {
      try FileIO.syncData(fd, path: tail.path)
    } catch {
      FileIO.close(fd)
      throw .system(error)
    }
    return OpenSegment(
      fd: fd, path: tail.path, firstVersion: tail.header.firstVersion, size: tail.end, headerLength: tail.headerLength)
  }
}

/// The writer as seen by its syncer thread, which must not keep it alive.
private final class WeakWriter: Sendable {
  private struct Reference {
    weak var writer: JournalWriter?
  }
  private let reference = Mutex(Reference())

  var writer: JournalWriter? {
    get { reference.withLock { $0.writer } }
    set { reference.withLock { $0.writer = newValue } }
  }
}
