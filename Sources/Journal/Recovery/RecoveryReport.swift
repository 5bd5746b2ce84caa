/// What ``JournalDirectory/recover(repair:)`` read and did, for the daemon's
/// log: one line of summary, then one per event.
public struct RecoveryReport: Sendable, Hashable, CustomStringConvertible {
  /// The snapshot recovery started from, if any.
  public internal(set) var snapshotPath: String?
  /// Its version (0 without a snapshot).
  public internal(set) var baseVersion: UInt64 = 0
  /// The segments read, oldest first.
  public internal(set) var segmentsRead: [String] = []
  /// How many records follow the snapshot.
  public internal(set) var recordCount = 0
  /// The last version recovered.
  public internal(set) var lastVersion: UInt64 = 0
  /// Everything found or done, in order.
  public internal(set) var events: [RecoveryEvent] = []

  /// The events that set data aside.
  public var warnings: [RecoveryEvent] { events.filter(\.isWarning) }

  /// Whether a repair dropped records (so versions after ``lastVersion`` may
  /// have existed, and clients may have seen them: a new epoch is due).
  public var droppedData: Bool {
    events.contains { if case .damageMovedAside = $0 { true } else { false } }
  }

  public var description: String {
    let base = snapshotPath.map { "the snapshot \($0) (version \(baseVersion))" } ?? "the empty state"
    var lines = [
      "recovered version \(lastVersion) from \(base) and \(recordCount) records in \(segmentsRead.count) segments"
    ]
    lines += events.map { ($0.isWarning ? "warning: " : "note: ") + $0.description }
    return lines.joined(separator: "\n")
  }
}
