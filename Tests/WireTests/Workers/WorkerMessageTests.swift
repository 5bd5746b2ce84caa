import ComposableCore
import FoundationEssentials
import JSON
import TestSupport
import Testing

@testable import Wire

@Suite(.ownThreads) struct WorkerMessageTests {
  static let commands: [WorkerCommand] = [
    .start(id: 7, request: .timer(.after(.milliseconds(500)))),
    .start(
      id: 8, request: .http(HTTPRequest(method: "POST", url: "http://127.0.0.1:8080/carts", body: Data("{}".utf8)))),
    .start(id: 9, request: .storage(.put(namespace: "bmi-history", key: "a", value: Data([0, 1, 2])))),
    .start(
      id: 10, request: .custom(kind: "export", payload: .object(["file": .string("todos.json"), "todos": .array([])]))),
    .cancel(id: 7),
    .ping(id: 3),
  ]

  static let events: [WorkerEvent] = [
    .ready(kind: .network, pid: 4242, protocol: WorkerProtocol.version),
    .reply(id: 7, reply: .timerFired(tick: 1)),
    .reply(id: 8, reply: .http(HTTPResponse(status: 201, text: "created"))),
    .reply(id: 9, reply: .failure(EffectFailure(.storage, "disk full"))),
    .ready(kind: "export", pid: 4243, protocol: WorkerProtocol.version),
    .reply(
      id: 10, reply: .custom(.object(["count": .int(2), "path": .string("/var/lib/todos/workers/export/todos.json")]))),
    .reply(id: 11, reply: .failure(EffectFailure(.invalidRequest, "'file' must be a plain file name"))),
    .pong(id: 3),
  ]

  @Test(arguments: commands) func commandsRoundTrip(_ command: WorkerCommand) throws {
    let frame = try WorkerProtocol.frame(command)
    var decoder = FrameDecoder(maximum: WorkerProtocol.maximumFrame)
    decoder.append(frame)
    let payload = try #require(try decoder.nextFrame())
    #expect(try WorkerCommand(payload: payload) == command)
  }

  /// A named store's request carries its name, for a built-in kind and an
  /// app's own alike.
  @Test func startsOfANamedStoreCarryItsName() throws {
    let alice = try StoreName("alice")
    let commands: [WorkerCommand] = [
      .start(id: 11, request: .storage(.list(namespace: "bmi-history")), store: alice),
      .start(id: 12, request: .custom(kind: "export", payload: .object([:])), store: alice),
    ]
    for command in commands {
      let json = try command.json()
      guard case .object(let object) = json else {
        Issue.record("a command is an object: \(json)")
        continue
      }
      #expect(object["store"] == .string("alice"), "\(json)")
      #expect(try WorkerCommand(payload: Array(CanonicalJSON.encode(json))) == command)
    }
  }

  @Test(arguments: events) func eventsRoundTrip(_ event: WorkerEvent) throws {
    let frame = try WorkerProtocol.frame(event)
    var decoder = FrameDecoder(maximum: WorkerProtocol.maximumFrame)
    decoder.append(frame)
    let payload = try #require(try decoder.nextFrame())
    #expect(try WorkerEvent(payload: payload) == event)
  }

  /// The exact bytes of the documented examples (docs/PROTOCOL.md, "Worker protocol").
  @Test func documentedExamples() throws {
    let examples = [
      (
        CanonicalJSON.text(try WorkerCommand.start(id: 7, request: .timer(.after(.milliseconds(500)))).json()),
        #"{"id":7,"request":{"timer":{"milliseconds":500,"repeats":false}},"type":"start"}"#
      ),
      (
        CanonicalJSON.text(try WorkerEvent.reply(id: 7, reply: .timerFired(tick: 1)).json()),
        #"{"id":7,"reply":{"timerFired":{"tick":1}},"type":"reply"}"#
      ),
      (
        CanonicalJSON.text(try WorkerEvent.ready(kind: .timer, pid: 4242, protocol: 1).json()),
        #"{"kind":"timer","pid":4242,"protocol":1,"type":"ready"}"#
      ),
    ]
    for (written, documented) in examples {
      #expect(written == documented)
      #expect(ProtocolDocument.text.contains("\n\(documented)\n"), "not in docs/PROTOCOL.md: \(documented)")
    }
  }

  /// Both lists of a failure's kinds in docs/PROTOCOL.md ("Actions as
  /// JSON" and "Worker protocol") name every kind there is, in order.
  @Test func theDocumentListsEveryFailureKind() {
    let prose = ProtocolDocument.text.split(separator: "\n").joined(separator: " ")
    let list = EffectFailure.Kind.allCases.map { "`\($0.rawValue)`" }
    let written = list.dropLast().joined(separator: ", ") + ", " + list[list.count - 1]
    #expect(prose.components(separatedBy: "one of " + written).count == 3, "docs/PROTOCOL.md must list: \(written)")
  }

  /// The examples of an app's own kind (docs/PROTOCOL.md, "An app's own
  /// kinds"), as a worker in another language reads and writes them.
  @Test func documentedExamplesOfAnAppsOwnKind() throws {
    let start = WorkerCommand.start(
      id: 12,
      request: .custom(
        kind: "export",
        payload: .object([
          "file": .string("todos.json"),
          "todos": .array([.object(["isComplete": .bool(false), "title": .string("Milk")])]),
        ])))
    #expect(
      CanonicalJSON.text(try start.json())
        == #"{"id":12,"kind":"export","request":{"file":"todos.json","todos":[{"isComplete":false,"title":"Milk"}]},"type":"start"}"#
    )
    let answered = try WorkerEvent(
      payload: Array(#"{"type":"reply","id":12,"value":{"path":"/tmp/todos.json","count":1}}"#.utf8))
    #expect(
      answered == .reply(id: 12, reply: .custom(.object(["count": .int(1), "path": .string("/tmp/todos.json")]))))
    let failed = try WorkerEvent(
      payload: Array(
        #"{"type":"reply","id":13,"failure":{"kind":"invalidRequest","message":"'file' is missing"}}"#.utf8))
    #expect(failed == .reply(id: 13, reply: .failure(EffectFailure(.invalidRequest, "'file' is missing"))))
    #expect(
      try WorkerEvent(payload: Array(#"{"type":"ready","kind":"export","pid":4243,"protocol":1}"#.utf8))
        == .ready(kind: "export", pid: 4243, protocol: 1))
  }

  @Test(arguments: [
    (#"[1]"#, "must be a JSON object"),
    (#"{"id":1}"#, "needs a string 'type'"),
    (#"{"type":"launch","id":1}"#, "unknown worker command 'launch'"),
    (#"{"type":"cancel"}"#, "'cancel' needs 'id'"),
    (#"{"type":"cancel","id":-1}"#, "non-negative"),
    (#"{"type":"start","id":1,"request":{"rocket":{}}}"#, "is not a EffectRequest"),
    (#"{"type":"ping","id":"x"}"#, "to be an integer"),
    (#"{"type":"start","id":1,"kind":"Export","request":{}}"#, "invalid worker kind 'Export'"),
    (#"{"type":"start","id":1,"kind":"export"}"#, "'start' needs 'request'"),
    (
      #"{"type":"start","id":1,"store":7,"request":{"timer":{"milliseconds":1,"repeats":false}}}"#,
      "'store' to be a string"
    ),
    (
      #"{"type":"start","id":1,"store":"../x","request":{"timer":{"milliseconds":1,"repeats":false}}}"#,
      "not a store name"
    ),
  ])
  func invalidCommandsSayWhatWasExpected(_ text: String, _ expected: String) {
    #expect {
      try WorkerCommand(payload: Array(text.utf8))
    } throws: { error in
      "\(error)".contains(expected)
    }
  }

  @Test(arguments: [
    (#"{"type":"ready","kind":"Printer","pid":1,"protocol":1}"#, "invalid worker kind 'Printer'"),
    (#"{"type":"ready","pid":1,"protocol":1}"#, "'ready' needs 'kind'"),
    (#"{"type":"reply","id":1}"#, "'reply' needs one of 'value'"),
    (#"{"type":"reply","id":1,"failure":{"message":"x"}}"#, "'failure' is not a EffectFailure"),
    (#"{"type":"ready","kind":"timer","pid":0,"protocol":1}"#, "invalid pid"),
    (#"{"type":"reply","id":1,"reply":7}"#, "is not a EffectReply"),
    (#"{"type":"hello"}"#, "unknown worker event 'hello'"),
  ])
  func invalidEventsSayWhatWasExpected(_ text: String, _ expected: String) {
    #expect {
      try WorkerEvent(payload: Array(text.utf8))
    } throws: { error in
      "\(error)".contains(expected)
    }
  }
}
