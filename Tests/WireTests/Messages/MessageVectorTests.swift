import ComposableCore
import JSON
import Testing
import Wire

/// The example session of docs/PROTOCOL.md, byte for byte.
struct MessageVector: Sendable, CustomTestStringConvertible {
  let name: String
  let json: String
  let frameHex: String
  var testDescription: String { name }
}

let messageVectors = [
  MessageVector(
    name: "hello", json: #"{"client":"tcactl","protocol":1,"type":"hello"}"#,
    frameHex: "0000002f7b22636c69656e74223a2274636163746c222c2270726f746f636f6c223a312c2274797065223a2268656c6c6f227d"),
  MessageVector(
    name: "welcome",
    json: #"{"epoch":"5f1c2e9a0b7d4c13","protocol":1,"server":"storedaemon 0.2.0","type":"welcome","version":0}"#,
    frameHex:
      "000000637b2265706f6368223a2235663163326539613062376434633133222c2270726f746f636f6c223a312c22736572766572223a2273746f72656461656d6f6e20302e322e30222c2274797065223a2277656c636f6d65222c2276657273696f6e223a307d"
  ),
  MessageVector(
    name: "send by path", json: #"{"arguments":["3"],"id":1,"path":"cart.addItem","type":"send"}"#,
    frameHex:
      "0000003e7b22617267756d656e7473223a5b2233225d2c226964223a312c2270617468223a22636172742e6164644974656d222c2274797065223a2273656e64227d"
  ),
  MessageVector(
    name: "ack", json: #"{"id":1,"type":"ack","version":1}"#,
    frameHex: "000000217b226964223a312c2274797065223a2261636b222c2276657273696f6e223a317d"),
  MessageVector(
    name: "subscribe to /counter", json: #"{"id":2,"path":"/counter","type":"subscribe"}"#,
    frameHex: "0000002d7b226964223a322c2270617468223a222f636f756e746572222c2274797065223a22737562736372696265227d"),
  MessageVector(
    name: "snapshot",
    json:
      #"{"path":"/counter","state":{"count":0,"errorMessage":null,"isLoading":false,"numberFact":null},"type":"snapshot","version":1}"#,
    frameHex:
      "0000007d7b2270617468223a222f636f756e746572222c227374617465223a7b22636f756e74223a302c226572726f724d657373616765223a6e756c6c2c2269734c6f6164696e67223a66616c73652c226e756d62657246616374223a6e756c6c7d2c2274797065223a22736e617073686f74222c2276657273696f6e223a317d"
  ),
  MessageVector(
    name: "diff",
    json:
      #"{"action":{"counter":"incrementButtonTapped"},"patch":[{"op":"replace","path":"/count","value":1}],"summary":"counter.incrementButtonTapped","type":"diff","version":2}"#,
    frameHex:
      "000000a77b22616374696f6e223a7b22636f756e746572223a22696e6372656d656e74427574746f6e546170706564227d2c227061746368223a5b7b226f70223a227265706c616365222c2270617468223a222f636f756e74222c2276616c7565223a317d5d2c2273756d6d617279223a22636f756e7465722e696e6372656d656e74427574746f6e546170706564222c2274797065223a2264696666222c2276657273696f6e223a327d"
  ),
  MessageVector(
    name: "error",
    json:
      #"{"code":"invalid_action","id":3,"message":"cart.addItem takes 1 argument (productID: Int), got 0","type":"error"}"#,
    frameHex:
      "000000717b22636f6465223a22696e76616c69645f616374696f6e222c226964223a332c226d657373616765223a22636172742e6164644974656d2074616b6573203120617267756d656e74202870726f6475637449443a20496e74292c20676f742030222c2274797065223a226572726f72227d"
  ),
]

@Suite struct MessageVectorTests {
  @Test(arguments: messageVectors)
  func framesAreTheDocumentedBytes(_ vector: MessageVector) throws {
    let json = try JSONParser.parse(Array(vector.json.utf8))
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
        "unknown message type 'x'; expected one of: hello, send, get, subscribe, actions, status, log, whatIf")
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
