import JSON
import Journal

/// One recorded version, as replay reads it: the action the daemon reduced,
/// what its reducer drew from the world, and the patch it recorded.
public struct RecordedVersion: Sendable, Hashable {
  public var version: UInt64
  /// When it was reduced, in milliseconds since the Unix epoch.
  public var time: Int64
  /// Who sent it (``JournalRecord/origin``).
  public var origin: JSONValue
  /// The action, in the schema of the state it was reduced on.
  public var action: JSONValue
  /// What the reducer drew (``JournalRecord/inputs``), if anything.
  public var inputs: JSONValue?
  /// The patch from the state before to the state after.
  public var patch: JSONValue
  /// The shape of the enums in `action` and `patch` (``JournalFormat``).
  public var format: UInt32

  public init(
    version: UInt64, time: Int64, origin: JSONValue, action: JSONValue, inputs: JSONValue? = nil, patch: JSONValue,
    format: UInt32 = JournalFormat.current
  ) {
    self.version = version
    self.time = time
    self.origin = origin
    self.action = action
    self.inputs = inputs
    self.patch = patch
    self.format = format
  }

  /// The version of a journal record kept in `format`.
  public init(_ record: JournalRecord, format: UInt32 = JournalFormat.current) {
    self.init(
      version: record.version, time: record.time, origin: record.origin, action: record.action, inputs: record.inputs,
      patch: record.patch, format: format)
  }

  /// The migration this version records, if it is one (``SchemaChange``).
  public var schemaChange: SchemaChange? { SchemaChange(action: action) }
}
