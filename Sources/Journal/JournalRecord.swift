import JSON

/// One reduced action as the journal keeps it: the version it produced, when,
/// who sent it, the action, and the state change as an RFC 6902 patch. The
/// one shape of a recorded version: the journal writes and reads it, replay
/// and `verify` replay it, and the log's entries are made from it.
///
/// The daemon builds one per reduced action and hands a batch of them to
/// ``JournalWriter/append(_:)``; recovery and ``JournalReader`` give them
/// back. `origin`, `action` and `patch` are opaque to the journal: it stores
/// their canonical JSON and returns the same values.
public struct JournalRecord: Sendable, Hashable {
  /// The state version the action produced; versions in a journal are
  /// contiguous (each record's is the previous one's plus 1) and start at 1.
  public var version: UInt64
  /// When the action was reduced, in milliseconds since the Unix epoch.
  public var time: Int64
  /// Who sent the action, e.g. `{"client":"tcactl","connection":3}` or
  /// `{"effect":…}`.
  public var origin: JSONValue
  /// The action, as its JSON.
  public var action: JSONValue
  /// What the reducer drew from the world while reducing it (dates, UUIDs,
  /// random numbers: `RecordedInputs` in ComposableCore), or `nil` if
  /// nothing; replaying the action gives the reducer these again.
  public var inputs: JSONValue?
  /// The RFC 6902 JSON Patch from the state at `version - 1` to the state at
  /// `version`.
  public var patch: JSONValue
  /// The canonical JSON of ``action`` and of ``patch``, when the caller has
  /// it already: the writer copies these bytes instead of encoding the
  /// values again. They must be `CanonicalJSON.encode(action)` and the
  /// canonical JSON of the patch; a writer that nothing else reads the
  /// record for may leave ``patch`` `.null` then (the daemon does, unless a
  /// client follows the log). Not part of the record's identity.
  public var canonical: (action: [UInt8], patch: [UInt8])?
  /// The canonical JSON of ``origin``, when the caller has it already; not
  /// part of the record's identity.
  public var canonicalOrigin: [UInt8]?
  /// The shape of the enums in ``action`` and ``patch`` (``JournalFormat``):
  /// the format of the segment the record was read from; a record being
  /// written is in the current one.
  public var format: UInt32

  public init(
    version: UInt64, time: Int64, origin: JSONValue, action: JSONValue, inputs: JSONValue? = nil, patch: JSONValue,
    canonical: (action: [UInt8], patch: [UInt8])? = nil, canonicalOrigin: [UInt8]? = nil,
    format: UInt32 = JournalFormat.current
  ) {
    self.format = format
    self.inputs = inputs
    self.version = version
    self.time = time
    self.origin = origin
    self.action = action
    self.patch = patch
    self.canonical = canonical
    self.canonicalOrigin = canonicalOrigin
  }

  public static func == (left: JournalRecord, right: JournalRecord) -> Bool {
    (left.version, left.time, left.origin, left.action, left.inputs, left.patch)
      == (right.version, right.time, right.origin, right.action, right.inputs, right.patch)
      && left.format == right.format
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(version)
    hasher.combine(time)
    hasher.combine(origin)
    hasher.combine(action)
    hasher.combine(inputs)
    hasher.combine(patch)
    hasher.combine(format)
  }

  /// The migration this record is, if it is one (``SchemaChange``).
  public var schemaChange: SchemaChange? { SchemaChange(action: action) }
}
