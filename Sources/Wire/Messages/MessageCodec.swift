import ComposableCore

/// Turns messages into frame payloads and back.
///
/// Payloads are UTF-8 JSON objects with sorted keys. Parsing never traps:
/// anything that is not a message comes back as a ``MessageError`` that says
/// what was expected.
public enum MessageCodec {
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

  private static func frame(payload: [UInt8]) -> [UInt8] {
    // Messages this process builds stay far below the frame maximum; should one
    // not, the peer would refuse it, so send an error frame instead.
    (try? FrameEncoder.frame(payload))
      ?? (try! FrameEncoder.frame(encode(ServerMessage.error(id: nil, code: .internal, message: "message too large").json)))
  }
}
