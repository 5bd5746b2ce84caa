import ComposableCore
import JSON
import Testing
import Wire

/// The messages of the action log and of `get` at a version, as docs/PROTOCOL.md
/// ("The action log") gives them.
@Suite struct ActionLogMessageTests {
  let entry = LogEntry(
    version: 7, time: 1_795_249_994_271,
    origin: .object(["client": .string("tcactl send"), "connection": .int(3), "origin": .int(2)]),
    action: .object(["counter": .string("incrementButtonTapped")]),
    summary: "counter.incrementButtonTapped",
    patch: .array([.object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(1)])]))

  @Test func clientMessagesRoundTrip() throws {
    let messages: [ClientMessage] = [
      .log(id: 1, since: nil, last: nil, follow: false),
      .log(id: 2, since: 40, last: 5, follow: true),
      .get(id: 3, path: "/cart", at: 12),
      .get(id: 4, path: "", at: nil),
    ]
    for message in messages {
      #expect(try ClientMessage(json: message.json) == message)
    }
    #expect(
      CanonicalJSON.text(ClientMessage.log(id: 2, since: 40, last: 5, follow: true).json)
        == #"{"follow":true,"id":2,"last":5,"since":40,"type":"log"}"#)
    #expect(
      CanonicalJSON.text(ClientMessage.get(id: 3, path: "/cart", at: 12).json)
        == #"{"at":12,"id":3,"path":"/cart","type":"get"}"#)
  }

  @Test func serverMessagesRoundTrip() throws {
    let messages: [ServerMessage] = [
      .log(id: 1, records: [entry], through: 9, more: true),
      .log(id: 2, records: [], through: 0, more: false),
      .record(entry),
    ]
    for message in messages {
      #expect(try ServerMessage(json: message.json) == message)
    }
    #expect(
      CanonicalJSON.text(ServerMessage.record(entry).json)
        == #"{"record":{"action":{"counter":"incrementButtonTapped"},"origin":{"client":"tcactl send","connection":3,"origin":2},"patch":[{"op":"replace","path":"/counter/count","value":1}],"summary":"counter.incrementButtonTapped","time":1795249994271,"version":7},"type":"record"}"#
    )
  }

  @Test func badLogRequestsSayWhatWasExpected() {
    #expect(throws: MessageError(.invalidMessage, "'log' needs 'last' to be at least 1, got 0")) {
      try ClientMessage(json: .object(["type": .string("log"), "id": .int(1), "last": .int(0)]))
    }
    #expect(throws: MessageError(.invalidMessage, "'log': 'since' must not be negative, got -1")) {
      try ClientMessage(json: .object(["type": .string("log"), "id": .int(1), "since": .int(-1)]))
    }
    #expect(throws: MessageError(.invalidMessage, "'log' needs 'follow' to be true or false; got \"yes\"")) {
      try ClientMessage(json: .object(["type": .string("log"), "id": .int(1), "follow": .string("yes")]))
    }
    #expect(throws: MessageError(.invalidMessage, "'get' needs 'at' to be an integer; got \"latest\"")) {
      try ClientMessage(json: .object(["type": .string("get"), "id": .int(1), "at": .string("latest")]))
    }
  }
}
