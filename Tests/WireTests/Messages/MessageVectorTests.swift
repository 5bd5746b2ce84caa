import ComposableCore
import JSON
import TestSupport
import Testing
import Wire

/// The example session of docs/PROTOCOL.md, byte for byte: each message as
/// the document shows it, its payload and its frame in hex.
struct MessageVector: Sendable, CustomTestStringConvertible {
  let name: String
  let json: String
  let frameHex: String
  let statedByteCount: Int
  var testDescription: String { name }
}

let messageVectors = ProtocolDocument.exampleSession.map {
  MessageVector(name: $0.description, json: $0.payload, frameHex: $0.frameHex, statedByteCount: $0.statedByteCount)
}

@Suite(.ownThreads) struct MessageVectorTests {
  /// The session has the messages the document's client exchanges, in order.
  @Test func theDocumentShowsTheWholeSession() {
    #expect(
      messageVectors.map(\.name) == [
        "client hello", "daemon welcome", "client send by path", "daemon ack", "client subscribe to /counter",
        "daemon snapshot", "daemon diff", "client send by path, its argument missing", "daemon error",
      ])
  }

  @Test(arguments: messageVectors)
  func framesAreTheDocumentedBytes(_ vector: MessageVector) throws {
    let json = try JSONParser.parse(Array(vector.json.utf8))
    #expect(MessageCodec.encode(json) == Array(vector.json.utf8), "the payload is canonical JSON")
    #expect(vector.json.utf8.count == vector.statedByteCount, "the heading gives the payload's length")
    #expect(hex(try FrameEncoder.frame(MessageCodec.encode(json))) == vector.frameHex)
  }

  @Test(arguments: messageVectors)
  func documentedFramesDecodeToMessagesThatEncodeBackIdentically(_ vector: MessageVector) throws {
    var decoder = FrameDecoder()
    decoder.append(bytes(fromHex: vector.frameHex))
    let payload = try #require(try decoder.nextFrame())
    let json = try MessageCodec.parse(payload)
    if let message = try? ClientMessage(json: json) {
      #expect(MessageCodec.encode(message.json) == payload)
    } else {
      let message = try ServerMessage(json: json)
      #expect(MessageCodec.encode(message.json) == payload)
      // Acks and diffs are framed without building their JSON: the same bytes.
      #expect(hex(MessageCodec.frame(message)) == vector.frameHex)
    }
  }

  /// The acks and diffs written straight to bytes are the canonical JSON of
  /// the same messages, whatever they hold.
  @Test(arguments: [
    ServerMessage.ack(id: 0, version: 0), .ack(id: -7, version: UInt64.max), .ack(id: Int.max, version: 42),
    .diff(
      version: 9, action: .object(["b": .array([.null, .double(0.5)]), "a": .string("é\"\n")]),
      summary: "cart.rename 'it'\\''s \"x\"\n\u{1}", patch: .array([])),
    .diff(
      version: UInt64.max, action: .null, summary: "",
      patch: .array([.object(["op": .string("remove"), "path": .string("/a~1b")])])),
  ])
  func directlyWrittenFramesAreTheCanonicalJSON(_ message: ServerMessage) throws {
    #expect(
      MessageCodec.frame(message)
        == (try FrameEncoder.frame(MessageCodec.encode(message.json), maximum: MessageCodec.maximumPayload)))
  }

  @Test func clientMessagesRejectWhatTheyCannotRead() {
    #expect(
      throws: MessageError(
        .unknownType,
        "unknown message type 'x'; expected one of: hello, send, get, subscribe, actions, status, log, whatIf, stores")
    ) {
      try ClientMessage(json: .object(["type": .string("x")]))
    }
    #expect(throws: MessageError.self) { try ClientMessage(json: .object(["type": .string("send"), "id": .int(1)])) }
    #expect(throws: MessageError.self) { try ClientMessage(json: .array([])) }
  }
}

func bytes(fromHex hex: String) -> [UInt8] {
  var result: [UInt8] = []
  var index = hex.startIndex
  while index < hex.endIndex {
    let next = hex.index(index, offsetBy: 2)
    result.append(UInt8(hex[index..<next], radix: 16)!)
    index = next
  }
  return result
}
