/// When the daemon should write a snapshot: a pure decision on the journal's
/// ``JournalProgress``, which the store loop consults after each batch.
///
/// Restart time grows with the journal after the last snapshot, so a snapshot
/// is due when that journal reaches ``journalBytes`` or ``records``. But a
/// snapshot rewrites the whole state, so it is also held back until the
/// journal since the last one is at least ``minimumRatioToSnapshot`` times
/// that snapshot's size: a large state is not rewritten for every few small
/// records (the idea of Redis's `auto-aof-rewrite-percentage`). With the
/// defaults, disk use stays within about twice the larger of the state and
/// 64 MiB, and a restart replays at most 64 MiB or a million records.
public struct SnapshotPolicy: Sendable, Hashable {
  /// Journal bytes since the last snapshot that make one due; `nil` for no
  /// limit by size.
  public var journalBytes: Int?
  /// Records since the last snapshot that make one due; `nil` for no limit
  /// by count.
  public var records: UInt64?
  /// The journal since the last snapshot must be at least this many times
  /// that snapshot's size before a new one is written.
  public var minimumRatioToSnapshot: Double

  public init(journalBytes: Int? = 64 << 20, records: UInt64? = 1_000_000, minimumRatioToSnapshot: Double = 1.0) {
    self.journalBytes = journalBytes
    self.records = records
    self.minimumRatioToSnapshot = minimumRatioToSnapshot
  }

  /// The defaults: 64 MiB or a million records, and at least the last
  /// snapshot's size.
  public static let standard = SnapshotPolicy()

  /// Never snapshot.
  public static let never = SnapshotPolicy(journalBytes: nil, records: nil)

  /// Whether a snapshot is due.
  public func shouldSnapshot(_ progress: JournalProgress) -> Bool {
    let bySize = journalBytes.map { progress.bytesSinceSnapshot >= $0 } ?? false
    let byCount = records.map { progress.recordsSinceSnapshot >= $0 } ?? false
    guard bySize || byCount, progress.recordsSinceSnapshot > 0 else { return false }
    return Double(progress.bytesSinceSnapshot) >= minimumRatioToSnapshot * Double(progress.snapshotBytes)
  }
}
