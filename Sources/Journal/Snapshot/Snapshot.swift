import JSON

/// The whole state at one version, as read from a snapshot file.
///
/// Turning `state` into the app's `State` type is the daemon's job (with
/// `CanonicalJSON.decode`); if that fails, ``StateDecodingFailure`` makes the
/// message, and the file must be left as it is.
public struct Snapshot: Sendable, Hashable {
  /// The version the state is at: the journal continues with `version + 1`.
  public let version: UInt64
  /// The lineage the version belongs to.
  public let epoch: String
  /// When the snapshot was written, in milliseconds since the Unix epoch.
  public let time: Int64
  /// The state, as JSON.
  public let state: JSONValue
  /// The file it was read from.
  public let path: String
  /// The file's size in bytes.
  public let byteCount: Int
  /// The format `state` is in (``JournalFormat``).
  public let format: UInt32
  /// The app's schema version `state` is in: the shape of its types
  /// (`HostedApp.schemaVersion`; 1 in files that predate schemas).
  public let schema: Int

  public init(
    version: UInt64, epoch: String, time: Int64, state: JSONValue, path: String, byteCount: Int,
    format: UInt32 = JournalFormat.current, schema: Int = 1
  ) {
    self.format = format
    self.schema = schema
    self.version = version
    self.epoch = epoch
    self.time = time
    self.state = state
    self.path = path
    self.byteCount = byteCount
  }
}
