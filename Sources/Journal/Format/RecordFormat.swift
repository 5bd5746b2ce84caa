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
      origin: .canonical(record.canonicalOrigin ?? CanonicalJSON.encode(record.origin)),
      patch: record.canonical?.patch ?? CanonicalJSON.encode(record.patch), to: &buffer)
  }

  /// Appends the header and payload of the record of `version` made of the
  /// canonical JSON of its action, origin and patch, as they are.
  ///
  /// - Returns: the payload's length.
  @discardableResult
  static func append(
    version: UInt64, time: Int64, action: [UInt8], inputs: JSONValue?, origin: RecordOrigin, patch: [UInt8],
    to buffer: inout [UInt8]
  ) -> Int {
    let inputs = inputs.map(CanonicalJSON.encode)
    let payloadLength =
      payloadFixedLength + action.count + (inputs.map { inputsNameLength + $0.count } ?? 0) + origin.count
      + patch.count + ByteWriter.decimalCount(of: time) + ByteWriter.decimalCount(of: version)
    ByteWriter.append(count: headerLength + payloadLength, to: &buffer) { bytes in
      bytes.write(bigEndian: UInt32(truncatingIfNeeded: payloadLength))
      bytes.write(bigEndian: 0)  // the payload's checksum, stored below
      bytes.write(bigEndian: 0)  // the header check, stored below
      bytes.write(#"{"action":"#)
      bytes.write(action)
      if let inputs {
        bytes.write(#","inputs":"#)
        bytes.write(inputs)
      }
      bytes.write(#","origin":"#)
      origin.write(to: &bytes)
      bytes.write(#","patch":"#)
      bytes.write(patch)
      bytes.write(#","time":"#)
      bytes.writeDecimal(time)
      bytes.write(#","version":"#)
      bytes.writeDecimal(version)
      bytes.write(UInt8(ascii: "}"))
      bytes.store(bigEndian: CRC32C.checksum(bytes.written(from: headerLength)), at: 4)
      bytes.store(bigEndian: CRC32C.checksum(bytes.written(from: 0, to: 8)), at: 8)
    }
    return payloadLength
  }

  /// The bytes of a payload besides its values and `inputs`.
  private static let payloadFixedLength =
    #"{"action":"#.utf8.count + #","origin":"#.utf8.count + #","patch":"#.utf8.count + #","time":"#.utf8.count
    + #","version":"#.utf8.count + 1
  private static let inputsNameLength = #","inputs":"#.utf8.count

  /// `record`'s bytes: header and payload.
  static func encode(_ record: JournalRecord) -> [UInt8] {
    var buffer: [UInt8] = []
    append(record, to: &buffer)
    return buffer
  }
}
