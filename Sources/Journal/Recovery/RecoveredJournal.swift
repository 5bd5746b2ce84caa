import JSON
import Platform

/// What recovery gives the daemon: the latest snapshot, the records after it
/// in version order, and a report of what it found and did.
///
/// The daemon then rebuilds its state (``replay(initialState:)``, then
/// decodes it into `State`), seeds its diff history from the last records,
/// and opens the writer with ``JournalDirectory/openWriter(after:epoch:configuration:)``,
/// which continues exactly where this left off.
public struct RecoveredJournal: Sendable {
  /// The journal directory.
  public let directory: String
  /// The snapshot recovery started from; `nil` if there is none (the records
  /// then start at version 1, on the app's initial state).
  public let snapshot: Snapshot?
  /// The records after the snapshot, contiguous, in version order.
  public let records: JournalEntries
  /// What was read and what was done.
  public let report: RecoveryReport
  /// The epoch of the newest segment (else the snapshot's); `nil` for an
  /// empty journal. The daemon keeps it, so versions stay meaningful to
  /// clients across restarts, unless ``RecoveryReport/droppedData`` says a
  /// repair dropped versions that clients may have seen.
  public let epoch: String?
  /// Bytes of records after the snapshot, for ``SnapshotPolicy``.
  public let bytesSinceSnapshot: Int

  /// The newest segment, where the writer continues if it can.
  let tail: Tail?

  struct Tail: Sendable, Hashable {
    var path: String
    var identity: FileIdentity
    var header: SegmentHeader
    /// The offset just past its last whole record: its length after recovery.
    var end: Int
    var headerLength: Int
    /// The version of its last record (its first version - 1 if it has none).
    var lastVersion: UInt64
  }

  /// The last version: of the last record, else of the snapshot, else 0.
  public var lastVersion: UInt64 { report.lastVersion }

  /// The state at ``lastVersion``: the snapshot's state (or `initialState`
  /// without a snapshot) with every record's patch applied in order.
  ///
  /// - Parameter initialState: the app's state at version 0, used only when
  ///   there is no snapshot.
  /// - Throws: ``JournalError/patchDoesNotApply(version:path:offset:reason:)``
  ///   or ``JournalError/undecodableRecord(path:offset:reason:)``.
  public func replay(initialState: JSONValue) throws(JournalError) -> JSONValue {
    try Replay.apply(records, to: snapshot?.state ?? initialState)
  }

  /// The progress counters the writer starts from.
  var progress: JournalProgress {
    JournalProgress(
      lastVersion: lastVersion, durableVersion: lastVersion, snapshotVersion: snapshot?.version,
      snapshotBytes: snapshot?.byteCount ?? 0, bytesSinceSnapshot: bytesSinceSnapshot)
  }
}
