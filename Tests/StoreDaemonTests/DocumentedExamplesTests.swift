import Foundation
import JSON
import TestSupport
import Testing
import Wire

/// What docs/PROTOCOL.md quotes of a real daemon, asked of one: the
/// messages of the "Limits" table, and its examples of log entries and
/// `whatIf` answers. An example's `…` stands for what it leaves out; the
/// numbers and UUIDs that change from run to run (times, connections) are
/// compared as numbers and UUIDs, not by value.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct DocumentedExamplesTests {
  /// The example line of the document that begins with `prefix`.
  func example(_ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try #require(ProtocolDocument.example(startingWith: prefix), "docs/PROTOCOL.md has no line starting \(prefix)")
  }

  func expect(
    _ actual: String, matches example: String, normalizing: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let (actual, example) =
      normalizing ? (ProtocolDocument.normalized(actual), ProtocolDocument.normalized(example)) : (actual, example)
    #expect(
      ProtocolDocument.matches(actual, example: example), "the daemon's\n\(actual)\nis not the document's\n\(example)",
      sourceLocation: sourceLocation)
  }

  /// Each limit's row quotes the message the daemon answers past it.
  @Test func theLimitsTableQuotesTheDaemonsMessages() throws {
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.hello()
    let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    let requests = [
      #"{"type":"send","id":1,"path":"\#(String(repeating: "q", count: 60_000))"}"#,
      #"{"type":"send","id":2,"path":"tabSelected","arguments":["\#(String(repeating: "x", count: 900_000))"]}"#,
      #"{"type":"get","id":3,"path":"\#(String(repeating: "/a", count: 400_000))"}"#,
      #"{"type":"send","id":4,"path":"cart.addItem","arguments":["\#(deep)"]}"#,
      #"{"type":"send","id":5,"action":{"products":{"productsResponse":\#(deep)}}}"#,
    ]
    for request in requests {
      try raw.send(request)
      guard case .error(_, _, let message)? = try raw.read() else {
        Issue.record("expected an error for \(request.prefix(60))…")
        continue
      }
      #expect(ProtocolDocument.text.contains("`\(message)` |"), "docs/PROTOCOL.md, \"Limits\", lacks: \(message)")
    }
    let nameless = try RawConnection(daemon)
    try nameless.send(#"{"type":"hello","protocol":1,"client":"\#(String(repeating: "n", count: 1_000_000))"}"#)
    guard case .error(nil, .handshake, let message)? = try nameless.read() else {
      Issue.record("an overlong client name must end the handshake")
      return
    }
    #expect(ProtocolDocument.text.contains("`\(message)` |"), "docs/PROTOCOL.md, \"Limits\", lacks: \(message)")
  }

  /// The log entries of "The action log": `cart.addItem 3`, and saving a
  /// BMI record, both sent by `tcactl send`.
  @Test func theLogEntriesAreTheDaemons() throws {
    let daemon = try DaemonProcess()
    for (path, arguments) in [
      ("cart.addItem", ["3"]), ("bmi.input.binding.height", ["180"]), ("bmi.input.binding.weight", ["75"]),
      ("bmi.input.saveButtonTapped", []),
    ] {
      #expect(try tcactl(["send", path] + arguments, socket: daemon.socketPath).status == 0)
    }
    let entries = try Self.logEntries(daemon)
    let added = try #require(entries.first { $0.contains(#""summary":"cart.addItem 3""#) })
    expect(added, matches: try example(#"{"action":{"cart":{"addItem":3}},"origin""#))
    let saved = try #require(entries.first { $0.contains(#""summary":"bmi.input.saveButtonTapped""#) })
    expect(saved, matches: try example(#"{"action":{"bmi":{"input":"saveButtonTapped"}}"#))
  }

  /// The migration's log entry of "Schema migrations", from `shelfd` 2.0.0
  /// started on the data of 1.0.0.
  @Test func theMigrationsLogEntryIsTheDaemons() throws {
    let daemon = try DaemonProcess(copyingState: SchemaUpgradeTests.tail, executable: "shelf-v2")
    let migration = try #require(try Self.logEntries(daemon).last)
    expect(migration, matches: try example(#"{"action":{"$migration":{"from":1,"to":2}}"#))
  }

  /// The requests and answers of "What if", in the history the document
  /// tells: the counter incremented four times, the die landed on 6
  /// (version 5), the settings opened (6) and a name typed into them (7).
  @Test func theWhatIfAnswersAreTheDaemons() throws {
    let daemon = try LoopDaemon(arguments: ["--allow-internal-actions"])
    let client = try daemon.client()
    for _ in 1...4 { _ = try client.send(path: "counter.incrementButtonTapped") }
    #expect(try client.send(path: "dice.internal.rollCompleted", arguments: ["6"]) == 5)
    #expect(try client.send(path: "parent.settingsButtonTapped") == 6)
    #expect(try client.send(path: "parent.settings.presented.binding.displayName", arguments: ["Ada"]) == 7)
    let raw = try RawConnection(daemon)
    try raw.hello()
    for (request, answer) in [
      (#"{"id":9,"type":"whatIf""#, #"{"edited":6,"id":9,"#),
      (#"{"action":{"dice":{"internal""#, #"{"edited":5,"id":12,"#),
    ] {
      try raw.send(try example(request))
      let answered = String(decoding: try #require(try raw.readPayload()), as: UTF8.self)
      expect(answered, matches: try example(answer), normalizing: false)
    }
  }

  /// The internal action refused in "Internal actions" is refused so.
  @Test func anInternalActionIsRefusedAsDocumented() throws {
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.hello()
    try raw.send(#"{"type":"send","id":1,"path":"bmi.history.loaded","arguments":["[]","[]"]}"#)
    guard case .error(1, .invalidAction, let message)? = try raw.read() else {
      Issue.record("an internal action from a client must be refused")
      return
    }
    #expect(ProtocolPromisesTests.protocolProse.contains("`\(message)`"), "\(message)")
  }

  /// Every log entry the daemon holds, as canonical JSON text.
  static func logEntries(_ daemon: DaemonProcess) throws -> [String] {
    let raw = try RawConnection(daemon)
    try raw.hello()
    try raw.send(#"{"type":"log","id":1}"#)
    let payload = try #require(try raw.readPayload())
    guard case .array(let records)? = try JSONParser.parse(payload)[path: "records"] else {
      throw DaemonTestError("a log answer has records: \(String(decoding: payload, as: UTF8.self))")
    }
    return records.map { CanonicalJSON.text($0) }
  }
}
