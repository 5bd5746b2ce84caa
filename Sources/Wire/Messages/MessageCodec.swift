import ComposableCore

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

  /// The JSON of a payload, parsed strictly (RFC 8259, nesting depth limited).
  public static func parse(_ payload: [UInt8]) throws(MessageError) -> JSONValue {
    do {
      return try JSONParser.parse(payload)
    } catch {
      throw MessageError(.invalidJSON, "the payload is not valid JSON: \(error)")
    }
  }

  /// A frame carrying `message`.
  public static func frame(_ message: ServerMessage) -> [UInt8] {
    frame(payload: encode(message.json))
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
      id: nil, code: .internal, message: "a message of \(payload.count) bytes exceeds the \(maximumPayload)-byte maximum")
    // Safe: this error message is a few hundred bytes, far below any maximum.
    return try! FrameEncoder.frame(encode(error.json))
  }
}
