/// How far the journal has got, for the daemon's status and for deciding
/// when to snapshot (``SnapshotPolicy``).
public struct JournalProgress: Sendable, Hashable {
  /// The last version appended (written, perhaps not yet synced).
  public var lastVersion: UInt64
  /// The last version known to be on the device (synced).
  public var durableVersion: UInt64
  /// The version of the latest snapshot, if any.
  public var snapshotVersion: UInt64?
  /// The latest snapshot's size in bytes (0 without one).
  public var snapshotBytes: Int
  /// Bytes of records appended since the latest snapshot was begun (at
  /// recovery: the bytes of the records after it).
  public var bytesSinceSnapshot: Int

  public init(
    lastVersion: UInt64, durableVersion: UInt64, snapshotVersion: UInt64?, snapshotBytes: Int, bytesSinceSnapshot: Int
  ) {
    self.lastVersion = lastVersion
    self.durableVersion = durableVersion
    self.snapshotVersion = snapshotVersion
    self.snapshotBytes = snapshotBytes
    self.bytesSinceSnapshot = bytesSinceSnapshot
  }

  /// Records after the latest snapshot: what a restart would replay.
  public var recordsSinceSnapshot: UInt64 {
    lastVersion - min(lastVersion, snapshotVersion ?? 0)
  }
}
