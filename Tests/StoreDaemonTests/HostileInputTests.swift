import ComposableCore
import Foundation
import Glibc
import JSON
import Synchronization
import Testing
import Wire

/// Hostile input never crashes the daemon nor disturbs another client: each
/// case gets a clear error (or the documented close), and a bystander client
/// keeps working throughout. The daemon is its store loop in this process
/// (``LoopDaemon``), but where its effects must run.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HostileInputTests {
  /// Checks that a well-behaved client still gets answers.
  func bystanderWorks(_ bystander: WireClient) throws {
    let before = try bystander.get(path: "/counter/count").value
    _ = try bystander.send(path: "counter.incrementButtonTapped")
    guard case .int(let count) = before else { throw DaemonTestError("count is not an int") }
    #expect(try bystander.get(path: "/counter/count").value == .int(count + 1))
  }

  /// The sends that trapped a debug daemon (issue 41): an internal case whose
  /// one value is optional, by path without it; and with the daemon taking
  /// internal actions, that value left out, written null, or in JSON of every
  /// form. Each is answered, and what is recorded is the action's own
  /// encoding, `{"orderID":null}`, whichever way it came.
  @Test func anOptionalLeftOutIsAnsweredNeverATrap() throws {
    let strict = try LoopDaemon()
    let client = try strict.client("sender")
    #expect {
      try client.send(path: "cart.orderPlaced")
    } throws: { error in
      guard case ClientError.rejected(.invalidAction, let message) = error else { return false }
      return message.contains("cart.orderPlaced is sent by the HTTP effect, not by clients")
    }
    try bystanderWorks(try strict.client("bystander"))

    let debugging = try LoopDaemon(arguments: ["--allow-internal-actions"])
    let sender = try debugging.client("sender")
    let recorded = JSONValue.object(["cart": .object(["orderPlaced": .object(["orderID": .null])])])
    let sends: [() throws -> UInt64] = [
      { try sender.send(path: "cart.orderPlaced") },
      { try sender.send(path: "cart.orderPlaced", arguments: ["null"]) },
      { try sender.send(action: .object(["cart": .string("orderPlaced")])) },
      { try sender.send(action: .object(["cart": .object(["orderPlaced": .object([:])])])) },
      { try sender.send(action: recorded) },
    ]
    for send in sends {
      let version = try send()
      let log = try sender.log(since: nil, last: 1)
      #expect(log.records.last?.version == version)
      #expect(log.records.last?.action == recorded, "version \(version)")
      #expect(log.records.last?.summary == "cart.orderPlaced", "version \(version)")
    }
    try bystanderWorks(try debugging.client("bystander"))
  }

  @Test func anOversizedLengthGetsAnErrorAndAClose() throws {
    let daemon = try LoopDaemon()
    let bystander = try daemon.client("bystander")
    let raw = try RawConnection(daemon)
    try raw.hello()
    try raw.write([0xFF, 0xFF, 0xFF, 0xFF])
    let messages = try raw.readUntilClosed()
    #expect(
      messages.first
        == .error(
          id: nil, code: .frame,
          message: "frame of 4294967295 bytes exceeds the maximum of 1048576 bytes; closing the connection"))
    #expect(messages.last.map { if case .goodbye = $0 { true } else { false } } == true)
    try bystanderWorks(bystander)
  }

  @Test func garbageAndInvalidJSONGetErrorsAndTheConnectionGoesOn() throws {
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.hello()
    try raw.write(FrameEncoder.frame([0x00, 0xFF, 0x13, 0x37]))
    guard case .error(nil, .invalidJSON, _) = try raw.read() else {
      Issue.record("garbage must be answered with invalid_json")
      return
    }
    try raw.send(#"{"type":"send","id":4,"action":"#)
    guard case .error(nil, .invalidJSON, _) = try raw.read() else {
      Issue.record("truncated JSON must be answered with invalid_json")
      return
    }
    try raw.send(#"{"type":"send","id":5,"path":"counter.incrementButtonTapped"}"#)
    #expect(try raw.read() == .ack(id: 5, version: 1))
  }

  @Test func unknownTypesAndMalformedMessagesNameWhatWasExpected() throws {
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.hello()
    try raw.send(#"{"type":"launch","id":7}"#)
    #expect(
      try raw.read()
        == .error(
          id: 7, code: .unknownType,
          message:
            "unknown message type 'launch'; expected one of: hello, send, get, subscribe, actions, status, log, whatIf, stores"
        )
    )
    try raw.send(#"{"type":"send","id":"eight"}"#)
    guard case .error(nil, .invalidMessage, let message) = try raw.read() else {
      Issue.record("a mistyped id must be answered with invalid_message")
      return
    }
    #expect(message.contains("'send' needs 'id' to be an integer"))
    try raw.send("[1,2,3]")
    guard case .error(nil, .invalidMessage, _) = try raw.read() else {
      Issue.record("a non-object must be answered with invalid_message")
      return
    }
  }

  @Test func aTruncatedFrameThenCloseLeavesTheDaemonServing() throws {
    let daemon = try LoopDaemon()
    let bystander = try daemon.client("bystander")
    // The probe that saw the daemon start may still be counted a moment.
    try waitUntil("the bystander is the only client") { try Self.clients(of: bystander) == .int(1) }
    do {
      let raw = try RawConnection(daemon)
      try raw.hello()
      try raw.write([0, 0, 0, 100, 1, 2, 3])
      #expect(try Self.clients(of: bystander) == .int(2))
      withExtendedLifetime(raw) {}
    }
    // The daemon saw the close mid-frame and let the connection go.
    try waitUntil("the truncated connection is gone") { try Self.clients(of: bystander) == .int(1) }
    try bystanderWorks(bystander)
  }

  /// How many clients the daemon serves, as `client` reads its status.
  static func clients(of client: WireClient) throws -> JSONValue? {
    try client.status()[path: "clients"]
  }

  @Test func aClientThatNeverSpeaksIsTimedOut() throws {
    // Long enough that the test's own clients, which say hello as soon as
    // they connect, are never caught by it on a busy machine.
    let daemon = try LoopDaemon(arguments: ["--handshake-timeout", "1"])
    let bystander = try daemon.client("bystander")
    let raw = try RawConnection(daemon)
    let messages = try raw.readUntilClosed()
    guard case .error(nil, .timeout, _) = messages.first else {
      Issue.record("a silent client must get a timeout error, got \(messages)")
      return
    }
    try bystanderWorks(bystander)
  }

  @Test func theFirstMessageMustBeHelloWithTheRightVersion() throws {
    let daemon = try LoopDaemon()
    let early = try RawConnection(daemon)
    try early.send(#"{"type":"get","id":1}"#)
    guard case .error(1, .handshake, _) = try early.readUntilClosed().first else {
      Issue.record("a request before hello must be refused")
      return
    }
    let future = try RawConnection(daemon)
    try future.send(#"{"type":"hello","protocol":99}"#)
    #expect(
      try future.readUntilClosed().first
        == .error(id: nil, code: .unsupportedVersion, message: "this daemon speaks protocol 1; the client asked for 99")
    )
  }

  @Test func aWatcherThatReadsNothingIsDisconnectedAndNeverSlowsTheStore() throws {
    let daemon = try LoopDaemon(arguments: ["--client-buffer", "65536", "--fsync", "never", "--lag-timeout", "0.2"])
    let stuck = try RawConnection(daemon)
    try stuck.hello()
    try stuck.send(#"{"type":"subscribe","id":1,"path":""}"#)
    let sender = try daemon.client("sender")
    let text = String(repeating: "x", count: 2000)
    var last = ""
    let deadline = ContinuousClock.now + .seconds(60)
    for index in 0..<100_000 where ContinuousClock.now < deadline {
      last = "\(index)\(text)"
      _ = try sender.send(path: "search.textChanged", arguments: [last])
      if index % 100 == 99, case .object(let status) = try sender.status(), status["subscribers"] == .int(0) { break }
    }
    let messages = try stuck.readUntilClosed()
    guard case .notice(.lagged, let reason)? = messages.dropLast().last else {
      Issue.record("a stuck watcher must end with a 'lagged' notice, got \(messages.suffix(2))")
      return
    }
    #expect(reason.contains("read nothing"))
    #expect(try sender.get(path: "/search/text").value == .string(last))
  }

  @Test func aSlowWatcherIsResyncedAndStillEndsWithTheExactState() throws {
    // Flow control, not durability, is under test: no sync may slow the sender.
    // However slowly the machine lets it read, it is resynced, never lagged.
    // A process with its workers: each change of the text starts the
    // search's debounce timer, and the state must not move on at once, as
    // it would when no timer worker runs and every debounce fails.
    let daemon = try DaemonProcess(arguments: [
      "--client-buffer", "65536", "--fsync", "never", "--lag-timeout", "3600", "--write-timeout", "3600",
    ])
    let watcher = try daemon.client("slow watcher")
    try watcher.subscribe()
    let path = daemon.socketPath
    let text = String(repeating: "y", count: 2000)
    let sending = DispatchSemaphore(value: 0)
    let lastVersion = Mutex<UInt64>(0)
    Thread.detachNewThread {
      defer { sending.signal() }
      guard let sender = try? WireClient(path: path, clientName: "fast sender") else { return }
      for index in 0..<1500 {
        if let version = try? sender.send(path: "search.textChanged", arguments: ["\(index)\(text)"]) {
          lastVersion.withLock { $0 = version }
        }
      }
    }
    // The slowest reader: it reads nothing until the sender is done, so the
    // diffs it is owed (about 3 MB) overflow its buffer however fast or
    // slow the machine runs the sender.
    sending.wait()
    var document: JSONValue = .null
    var version: UInt64 = 0
    var notices: [ServerMessage.Notice] = []
    while version < lastVersion.withLock({ $0 }) {
      switch try watcher.nextMessage() {
      case .snapshot(let snapshotVersion, _, let value, let notice):
        if let notice { notices.append(notice) }
        document = value
        version = snapshotVersion
      case .diff(let diffVersion, _, _, let patch):
        #expect(diffVersion == version + 1, "diffs must follow each other without a gap")
        document = try JSONPatch.apply(JSONPatch.operations(from: patch), to: document)
        version = diffVersion
      default:
        break
      }
    }
    #expect(notices.contains(.resynced))
    #expect(!notices.contains(.lagged))
    // At the watcher's version: the search's debounce may move the state on
    // after the last send.
    #expect(document == (try daemon.client().get(at: version).value))
  }
}
