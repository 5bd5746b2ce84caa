import JSON
import Platform
import Synchronization

/// A journal directory, locked for this process: the entry point for
/// recovery, the writer, snapshots and history.
///
/// The daemon's sequence:
///
/// ```swift
/// let journal = try JournalDirectory(path: stateDirectory + "/journal")
/// let recovered = try journal.recover(repair: options.repair)   // log recovered.report
/// var state = try recovered.replay(initialState: initialJSON)    // then decode into State
/// let writer = try journal.openWriter(after: recovered, epoch: recovered.epoch ?? newEpoch)
/// // store loop, per batch of reduced actions:
/// try writer.append(records)                                     // then acknowledge and publish
/// if policy.shouldSnapshot(writer.progress) {
///   try journal.writeSnapshot(version: version, state: stateJSON, epoch: writer.epoch)
/// }
/// // on SIGTERM:
/// try writer.close()
/// ```
///
/// `tcactl log` and `tcactl get --at V` are served from ``reader``.
public final class JournalDirectory: Sendable {
  /// The directory's path.
  public let path: String
  private let lock: DirectoryLock
  /// Serialises snapshots, and holds the writer so they can update its
  /// progress and check their version against it.
  private let snapshots = Mutex<JournalWriter?>(nil)

  /// Opens (creating it if needed, with its parent's entry synced) and locks
  /// the journal directory `path`.
  ///
  /// - Throws: ``JournalError/locked(path:holder:)`` if another process holds
  ///   it; ``JournalError/system(_:)`` if it cannot be created or opened.
  public init(path: String) throws(JournalError) {
    self.path = path
    do {
      try FileIO.makeDirectory(path)
    } catch {
      throw .system(error)
    }
    lock = try DirectoryLock(directory: path)
  }

  /// Reads the latest snapshot and the records after it, cutting off a torn
  /// tail; see ``JournalRecovery`` for the rules.
  ///
  /// - Parameter repair: whether damage that is not a torn tail (and an
  ///   unreadable snapshot the journal can do without) is moved aside instead
  ///   of stopping recovery. Nothing is ever deleted.
  /// - Throws: ``JournalError/damaged(_:)`` naming the file and offset of
  ///   damage, ``JournalError/unreadableSnapshot(path:reason:repairAdvice:)``,
  ///   ``JournalError/foreignFile(path:firstBytes:)``,
  ///   ``JournalError/unsupportedFormat(path:found:supported:)``, or a system
  ///   failure. On a throw, no file has been changed.
  public func recover(repair: Bool = false) throws(JournalError) -> RecoveredJournal {
    // Recovery cuts what looks torn: it must not see a batch being appended.
    if snapshots.withLock({ $0?.isOpen ?? false }) {
      throw .invalidArgument("cannot recover \(path) while its writer is open: close the writer first")
    }
    return try JournalRecovery(directory: path, repair: repair).run()
  }

  /// Sets aside `entry`, a record recovery read whole but the daemon cannot
  /// use (its patch does not apply, or the state it gives does not decode),
  /// and every record after it: the bytes from the record on are copied to a
  /// side file (`….damaged-<offset>`) and cut off, and later segments are
  /// moved aside, exactly as ``recover(repair:)`` does with damage. Recover
  /// again afterwards; versions from `entry`'s on are gone, so the daemon
  /// starts a new epoch.
  ///
  /// - Returns: what was dropped, for the log.
  /// - Throws: ``JournalError/changedSinceRecovery(path:reason:)`` if the
  ///   segment is gone or shorter, or a system failure.
  public func setAside(from entry: JournalEntry, problem: String) throws(JournalError) -> [RecoveryEvent] {
    if snapshots.withLock({ $0?.isOpen ?? false }) {
      throw .invalidArgument("cannot set records of \(path) aside while its writer is open: close the writer first")
    }
    return try JournalRecovery(directory: path, repair: true).setAside(
      segment: entry.path, offset: entry.offset, problem: problem)
  }

  /// Opens the writer (one at a time), continuing the journal exactly where `recovered` ends:
  /// in its newest segment if that is of the same epoch and not full, else in
  /// a new segment starting at `recovered.lastVersion + 1`.
  ///
  /// - Throws: ``JournalError/changedSinceRecovery(path:reason:)`` if the
  ///   newest segment changed after recovery; ``JournalError/invalidArgument(_:)``
  ///   for an invalid epoch or configuration.
  public func openWriter(
    after recovered: RecoveredJournal, epoch: String, configuration: JournalWriter.Configuration = .init()
  ) throws(JournalError) -> JournalWriter {
    guard recovered.directory == path else {
      throw .invalidArgument("the recovered journal is of \(recovered.directory), not of \(path)")
    }
    return try snapshots.withLock { current throws(JournalError) -> JournalWriter in
      if current?.isOpen ?? false {
        throw .invalidArgument("a writer of \(path) is already open: two would interleave their records")
      }
      let writer = try JournalWriter(
        directory: path, lock: lock, recovered: recovered, epoch: epoch, configuration: configuration)
      current = writer
      return writer
    }
  }

  /// Writes the state at `version` as a snapshot, atomically, then compacts:
  /// removes the segments the snapshot wholly covers and older snapshots.
  ///
  /// The file is written to a temporary name, synced, renamed, and the
  /// directory synced; only then is anything older removed, so a crash at any
  /// point leaves either the old snapshot or the new one (or both) usable.
  /// Files set aside by recovery are never removed.
  ///
  /// `state` must be the state at `version`, and `version` at most the
  /// writer's last appended version: snapshot between batches, from the store
  /// loop, with the state it holds then. (The encoding and writing may be
  /// slow for a large state; the call is safe from another thread, with a
  /// copy of the state, while the loop keeps appending.)
  ///
  /// - Parameter schema: the app's schema version `state` is in
  ///   (`HostedApp.schemaVersion`), written in the header so that recovery
  ///   knows which migrations the state needs.
  /// - Parameter compacting: false to keep what the snapshot covers until
  ///   the next snapshot: for one written because the state's JSON changed
  ///   shape (a new format, ``JournalFormat``), so that the history before it
  ///   stays readable.
  /// - Returns: what was written and removed.
  @discardableResult
  public func writeSnapshot(
    version: UInt64, state: JSONValue, epoch: String, time: Int64 = WallClock.milliseconds(), schema: Int = 1,
    compacting: Bool = true
  ) throws(JournalError) -> SnapshotResult {
    try snapshots.withLock { writer throws(JournalError) -> SnapshotResult in
      if let problem = Epoch.problem(epoch) { throw .invalidArgument("cannot write the snapshot: \(problem)") }
      let progress = writer?.progress
      if let progress, version > progress.lastVersion {
        throw .invalidArgument(
          "cannot write a snapshot of version \(version): the journal's last version is \(progress.lastVersion)")
      }
      let result = try SnapshotWriting.write(
        directory: path, version: version, state: state, epoch: epoch, time: time, schema: schema,
        compacting: compacting)
      writer?.noteSnapshot(version: version, bytes: result.bytes, bytesAtStart: progress?.bytesSinceSnapshot ?? 0)
      return result
    }
  }

  /// Reads records and past states from the retained journal.
  public var reader: JournalReader { JournalReader(directory: path) }
}
