import EffectRequests
import JSON

/// Turns messages into frame payloads and back.
///
/// Payloads are UTF-8 JSON objects with sorted keys. Parsing never traps:
/// anything that is not a message comes back as a ``MessageError`` that says
/// what was expected.
public enum MessageCodec {
  /// The largest payload the daemon sends and a client accepts: a snapshot of
  /// a large state must fit. The daemon accepts far less from clients.
  public static let maximumPayload: UInt32 = 256 << 20

  /// The payload bytes of `value`: canonical JSON (compact, sorted keys).
  public static func encode(_ value: JSONValue) -> [UInt8] {
    CanonicalJSON.encode(value)
  }

  /// The JSON of a payload, parsed strictly (RFC 8259, nesting depth limited
  /// to `maximumDepth`: the daemon reads clients' frames with
  /// ``ClientLimits/depth``).
  public static func parse(
    _ payload: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth
  ) throws(MessageError) -> JSONValue {
    do {
      return try JSONParser.parse(payload, maximumDepth: maximumDepth)
    } catch {
      throw MessageError(.invalidJSON, "the payload is not valid JSON: \(error)")
    }
  }

  /// A frame carrying `message`.
  public static func frame(_ message: ServerMessage) -> [UInt8] {
    // The two messages sent for nearly every action are written straight to
    // bytes, their keys in canonical order, rather than built as JSON
    // objects first; the bytes are the same.
    switch message {
    case .ack(let id, let version):
      return ByteWriter.bytes(count: ackFrameCount(id: id, version: version)) {
        writeAckFrame(id: id, version: version, to: &$0)
      }
    case .diff(let version, let action, let summary, let patch):
      return diffFrame(
        version: version, action: CanonicalJSON.encode(action), summary: CanonicalJSON.encode(.string(summary)),
        patch: CanonicalJSON.encode(patch))
    default:
      return frame(payload: encode(message.json))
    }
  }

  /// The bytes of the frame of `ack` `id` at `version`.
  public static func ackFrameCount(id: Int, version: UInt64) -> Int {
    4 + ackFixedCount + ByteWriter.decimalCount(of: id) + ByteWriter.decimalCount(of: Int(clamping: version))
  }

  /// Writes the frame of `ack` `id` at `version`, of
  /// ``ackFrameCount(id:version:)`` bytes: where an outbox gathers its
  /// answers, with no array of its own.
  public static func writeAckFrame(id: Int, version: UInt64, to bytes: inout ByteWriter) {
    let start = bytes.count
    bytes.write(bigEndian: 0)
    bytes.write(#"{"id":"#)
    bytes.writeDecimal(id)
    bytes.write(#","type":"ack","version":"#)
    bytes.writeDecimal(Int(clamping: version))
    bytes.write(UInt8(ascii: "}"))
    bytes.store(bigEndian: UInt32(bytes.count - start - 4), at: start)
  }

  /// The bytes of an ack's payload besides its numbers.
  private static let ackFixedCount = #"{"id":"#.utf8.count + #","type":"ack","version":"#.utf8.count + 1

  /// The frame of a `diff` message whose action, summary (a string) and
  /// patch are given as their canonical JSON (``CanonicalJSON/encode(_:)``):
  /// the daemon writes those bytes once for the frame and the journal
  /// record, and reads a repeated action's from its memo.
  public static func diffFrame(version: UInt64, action: [UInt8], summary: [UInt8], patch: [UInt8]) -> [UInt8] {
    let count = diffFrameCount(version: version, action: action, summary: summary, patch: patch)
    guard count - 4 <= Int(maximumPayload) else { return oversizedFrame(payloadCount: count - 4) }
    return ByteWriter.bytes(count: count) { bytes in
      bytes.write(bigEndian: UInt32(count - 4))
      bytes.write(#"{"action":"#)
      bytes.write(action)
      bytes.write(#","patch":"#)
      bytes.write(patch)
      bytes.write(#","summary":"#)
      bytes.write(summary)
      bytes.write(#","type":"diff","version":"#)
      bytes.writeDecimal(Int(clamping: version))
      bytes.write(UInt8(ascii: "}"))
    }
  }

  /// The bytes of ``diffFrame(version:action:summary:patch:)``'s frame,
  /// counted without writing it.
  public static func diffFrameCount(version: UInt64, action: [UInt8], summary: [UInt8], patch: [UInt8]) -> Int {
    diffFrameFixedCount + action.count + patch.count + summary.count
      + ByteWriter.decimalCount(of: Int(clamping: version))
  }

  /// The bytes of a diff frame besides its values: the length, the names
  /// and the punctuation.
  private static let diffFrameFixedCount =
    4 + #"{"action":"#.utf8.count + #","patch":"#.utf8.count + #","summary":"#.utf8.count
    + #","type":"diff","version":"#.utf8.count + 1

  /// A frame carrying `message`.
  public static func frame(_ message: ClientMessage) -> [UInt8] {
    frame(payload: encode(message.json))
  }

  /// A frame of `payload`. A payload past ``maximumPayload`` (a state of
  /// hundreds of megabytes) is replaced by an error frame saying so: the peer
  /// would refuse the frame, and the connection must stay in step.
  private static func frame(payload: [UInt8]) -> [UInt8] {
    if let frame = try? FrameEncoder.frame(payload, maximum: maximumPayload) { return frame }
    return oversizedFrame(payloadCount: payload.count)
  }

  /// The error frame sent in place of a message of `payloadCount` bytes,
  /// past ``maximumPayload``.
  private static func oversizedFrame(payloadCount: Int) -> [UInt8] {
    let error = ServerMessage.error(
      id: nil, code: .internal,
      message: "a message of \(payloadCount) bytes exceeds the \(maximumPayload)-byte maximum")
    // invariant: this error's payload is about a hundred bytes whatever the size it names, far below maximumPayload,
    // a constant of 256 MiB
    return try! FrameEncoder.frame(encode(error.json))
  }
}
