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
      return frame { bytes in
        bytes.append(literal: #"{"id":"#)
        CanonicalJSON.writeInteger(id, to: &bytes)
        bytes.append(literal: #","type":"ack","version":"#)
        CanonicalJSON.writeInteger(Int(clamping: version), to: &bytes)
        bytes.append(UInt8(ascii: "}"))
      }
    case .diff(let version, let action, let summary, let patch):
      return diffFrame(
        version: version, action: CanonicalJSON.encode(action), summary: summary, patch: CanonicalJSON.encode(patch))
    default:
      return frame(payload: encode(message.json))
    }
  }

  /// The frame of a `diff` message whose action and patch are given as
  /// their canonical JSON (``CanonicalJSON/encode(_:)``): the daemon writes
  /// those bytes once for the frame and the journal record.
  public static func diffFrame(version: UInt64, action: [UInt8], summary: String, patch: [UInt8]) -> [UInt8] {
    frame { bytes in
      bytes.append(literal: #"{"action":"#)
      bytes.append(contentsOf: action)
      bytes.append(literal: #","patch":"#)
      bytes.append(contentsOf: patch)
      bytes.append(literal: #","summary":"#)
      CanonicalJSON.writeString(summary, to: &bytes)
      bytes.append(literal: #","type":"diff","version":"#)
      CanonicalJSON.writeInteger(Int(clamping: version), to: &bytes)
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// The bytes of ``diffFrame(version:action:summary:patch:)``'s frame,
  /// counted without writing it.
  public static func diffFrameCount(version: UInt64, action: [UInt8], summary: String, patch: [UInt8]) -> Int {
    diffFrameFixedCount + action.count + patch.count + CanonicalJSON.writtenCount(ofString: summary)
      + CanonicalJSON.writtenCount(ofInteger: Int(clamping: version))
  }

  /// The bytes of a diff frame besides its values: the length, the names
  /// and the punctuation.
  private static let diffFrameFixedCount =
    4 + #"{"action":"#.utf8.count + #","patch":"#.utf8.count + #","summary":"#.utf8.count
    + #","type":"diff","version":"#.utf8.count + 1

  /// A frame whose payload `write` appends, written in place after room for
  /// the length.
  private static func frame(_ write: (inout [UInt8]) -> Void) -> [UInt8] {
    var bytes: [UInt8] = [0, 0, 0, 0]
    bytes.reserveCapacity(128)
    write(&bytes)
    let length = bytes.count - 4
    guard length <= Int(maximumPayload) else { return frame(payload: Array(bytes[4...])) }
    for index in 0..<4 { bytes[index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
    return bytes
  }

  /// A frame carrying `message`.
  public static func frame(_ message: ClientMessage) -> [UInt8] {
    frame(payload: encode(message.json))
  }

  /// A frame of `payload`. A payload past ``maximumPayload`` (a state of
  /// hundreds of megabytes) is replaced by an error frame saying so: the peer
  /// would refuse the frame, and the connection must stay in step.
  private static func frame(payload: [UInt8]) -> [UInt8] {
    if let frame = try? FrameEncoder.frame(payload, maximum: maximumPayload) { return frame }
    let error = ServerMessage.error(
      id: nil, code: .internal,
      message: "a message of \(payload.count) bytes exceeds the \(maximumPayload)-byte maximum")
    // invariant: this error's payload is about a hundred bytes whatever the size it names, far below maximumPayload,
    // a constant of 256 MiB
    return try! FrameEncoder.frame(encode(error.json))
  }
}
