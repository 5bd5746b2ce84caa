import Platform

/// Why ``JournalWriter/append(_:)`` (or `sync`, `close`) failed, and what the
/// daemon should do about it.
///
/// Two kinds matter most and are kept apart:
///
/// - ``noSpace(path:offset:failure:versions:)``: the batch was not written,
///   the journal is as it was before the call, and the writer keeps working.
///   The daemon rejects the batch's actions (their senders get an error),
///   keeps its previous state, and later appends succeed once there is room.
/// - ``syncFailed(path:failure:versions:)`` and ``ioFailed(failure:versions:)``:
///   the device failed. After a failed `fdatasync` the kernel may already have
///   dropped the unwritten pages and marked them clean, so syncing again would
///   "succeed" without the data: the writer never retries. It enters a failed
///   state and every later append throws ``refused(since:)``. The daemon
///   stops accepting actions, stays up for reads, and is restarted to recover
///   from the journal, which holds exactly what reached the disk.
public enum JournalWriteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No room (`ENOSPC`, `EDQUOT`, or `EFBIG` from a file size limit). The
  /// segment was cut back to its last whole record; none of `versions` exist.
  case noSpace(path: String, offset: Int, failure: SystemFailure, versions: ClosedRange<UInt64>)
  /// `fdatasync` failed: `versions` were written but may not be on the
  /// device. The writer refuses all further appends.
  case syncFailed(path: String, failure: SystemFailure, versions: ClosedRange<UInt64>)
  /// A write, a cut after a failed write, or the creation of a new segment
  /// failed for another reason than space. The writer refuses all further
  /// appends.
  case ioFailed(failure: SystemFailure, versions: ClosedRange<UInt64>)
  /// An earlier failure stopped the writer; nothing was written.
  indirect case refused(since: JournalWriteError)
  /// The batch's versions do not continue the journal: record `index` has
  /// version `found`, `expected` was due. Nothing was written; this is a bug
  /// in the caller.
  case versionOutOfSequence(expected: UInt64, found: UInt64, index: Int)
  /// A record's payload is larger than the writer's limit. Nothing of the
  /// batch was written.
  case recordTooLarge(version: UInt64, bytes: Int, limit: Int)
  /// The writer was closed.
  case closed(path: String)

  /// Whether the writer still accepts appends after this error: true for
  /// rejections of one batch (no space, out of sequence, too large), false
  /// once the writer has failed or was closed.
  public var writerStillUsable: Bool {
    switch self {
    case .noSpace, .versionOutOfSequence, .recordTooLarge: true
    case .syncFailed, .ioFailed, .refused, .closed: false
    }
  }

  public var description: String {
    switch self {
    case .noSpace(let path, let offset, let failure, let versions):
      return "no space to journal versions \(DroppedData.text(versions)): \(failure). Nothing of them was kept "
        + "(\(path) is cut back to byte \(offset)); free space on the device (or raise the quota or file size "
        + "limit), and later actions are accepted again"
    case .syncFailed(let path, let failure, let versions):
      return "the journal could not be synced, so versions \(DroppedData.text(versions)) may not be on disk: "
        + "\(failure). The kernel may have dropped the unsynced data of \(path), so the sync is not retried"
    case .ioFailed(let failure, let versions):
      return "journaling versions \(DroppedData.text(versions)) failed: \(failure)"
    case .refused(let since):
      return "journal writes are refused since an earlier failure: \(since.description). "
        + "Restart the daemon: it recovers the state from what the journal holds on disk"
    case .versionOutOfSequence(let expected, let found, let index):
      return "record \(index) of the batch has version \(found), but the journal continues with version "
        + "\(expected); nothing was written"
    case .recordTooLarge(let version, let bytes, let limit):
      return "the record of version \(version) is \(bytes) bytes, more than the journal's limit of \(limit) bytes; "
        + "nothing of the batch was written"
    case .closed(let path):
      return "the journal writer of \(path) is closed"
    }
  }
}
