import JSON

/// How one record is framed in a segment (docs/DURABILITY.md, "On-disk
/// format"):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | payload length *N*, big-endian (1 … 2³⁰) |
/// | 4 | 4 | CRC-32C of the payload, big-endian |
/// | 8 | 4 | CRC-32C of bytes 0 ..< 8 (the header check), big-endian |
/// | 12 | *N* | the payload: canonical JSON |
///
/// The header check protects the length. Without it, a damaged length in the
/// middle of the newest segment would look like a record cut short by a crash
/// and the records after it would be taken for a torn tail; with it, a length
/// is trusted only if its check matches.
///
/// The payload is the record's canonical JSON (docs/PROTOCOL.md, "State as
/// JSON"), members in byte order:
/// `{"action":…,"inputs":…,"origin":…,"patch":…,"time":<ms>,"version":<n>}`,
/// `inputs` only when the reducer drew any. Readers
/// ignore members they do not know, so a later format may add some.
enum RecordFormat {
  static let headerLength = 12
  /// The largest payload a reader accepts: a length field above it is damage,
  /// whatever its check says.
  static let maximumPayloadLength = 1 << 30

  /// Appends `record`'s header and payload to `buffer`.
  ///
  /// - Returns: the payload's length.
  @discardableResult
  static func append(_ record: JournalRecord, to buffer: inout [UInt8]) -> Int {
    append(
      version: record.version, time: record.time,
      action: record.canonical?.action ?? CanonicalJSON.encode(record.action), inputs: record.inputs,
      origin: record.canonicalOrigin ?? CanonicalJSON.encode(record.origin),
      patch: record.canonical?.patch ?? CanonicalJSON.encode(record.patch), to: &buffer)
  }

  /// Appends the header and payload of the record of `version` made of the
  /// canonical JSON of its action, origin and patch, as they are.
  ///
  /// - Returns: the payload's length.
  @discardableResult
  static func append(
    version: UInt64, time: Int64, action: [UInt8], inputs: JSONValue?, origin: [UInt8], patch: [UInt8],
    to buffer: inout [UInt8]
  ) -> Int {
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: headerLength))
    buffer.append(literal: #"{"action":"#)
    buffer.append(contentsOf: action)
    if let inputs {
      buffer.append(literal: #","inputs":"#)
      CanonicalJSON.write(inputs, to: &buffer)
    }
    buffer.append(literal: #","origin":"#)
    buffer.append(contentsOf: origin)
    buffer.append(literal: #","patch":"#)
    buffer.append(contentsOf: patch)
    buffer.append(literal: #","time":"#)
    CanonicalJSON.writeInteger(time, to: &buffer)
    buffer.append(literal: #","version":"#)
    CanonicalJSON.writeInteger(version, to: &buffer)
    buffer.append(UInt8(ascii: "}"))
    let payloadLength = buffer.count - start - headerLength
    let payloadChecksum = buffer.withUnsafeBytes {
      CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + headerLength)...]))
    }
    buffer.storeBigEndian(UInt32(truncatingIfNeeded: payloadLength), at: start)
    buffer.storeBigEndian(payloadChecksum, at: start + 4)
    let headerCheck = buffer.withUnsafeBytes {
      CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<start + 8]))
    }
    buffer.storeBigEndian(headerCheck, at: start + 8)
    return payloadLength
  }

  /// `record`'s bytes: header and payload.
  static func encode(_ record: JournalRecord) -> [UInt8] {
    var buffer: [UInt8] = []
    append(record, to: &buffer)
    return buffer
  }
}
