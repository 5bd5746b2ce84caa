import JSON

/// A record's `origin` object as the journal writes it, canonical JSON
/// (docs/DURABILITY.md, "On-disk format"): bytes made before, or the bytes
/// of the object up to the number of its last member, `origin`, and that
/// number. The daemon makes the bytes before the number once per client,
/// and the record is written with the number, with no bytes made per
/// action.
public enum RecordOrigin: Sendable {
  /// The object's canonical JSON, whole.
  case canonical([UInt8])
  /// The object's canonical JSON up to and including `"origin":`, and the
  /// number that follows (the object's last member, as `origin` sorts
  /// after its other keys).
  case prefixed([UInt8], origin: UInt64)

  /// How many bytes ``write(to:)`` writes.
  var count: Int {
    switch self {
    case .canonical(let bytes): bytes.count
    case .prefixed(let prefix, let origin): prefix.count + ByteWriter.decimalCount(of: origin) + 1
    }
  }

  /// Writes the object's canonical JSON.
  func write(to bytes: inout ByteWriter) {
    switch self {
    case .canonical(let canonical):
      bytes.write(canonical)
    case .prefixed(let prefix, let origin):
      bytes.write(prefix)
      bytes.writeDecimal(origin)
      bytes.write(UInt8(ascii: "}"))
    }
  }

  /// The object's canonical JSON, made.
  public var canonicalBytes: [UInt8] {
    if case .canonical(let bytes) = self { return bytes }
    return ByteWriter.bytes(count: count) { write(to: &$0) }
  }
}
