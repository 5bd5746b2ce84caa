import ComposableCore
import JSON
import Testing
import Wire

@testable import StoreDaemon

/// A client written as one in another language would be: it reads the
/// `actions` message and builds each action's JSON by the rules of
/// docs/PROTOCOL.md ("Actions as JSON") alone — replacing the `$argument` and
/// `$id` placeholders with values chosen from each value's `type` — without
/// the Swift schema, and sends frames of JSON text.
final class ForeignClient {
  private let connection: any ForeignTransport
  private var nextID = 1

  /// A client of a daemon process, greeted.
  init(_ daemon: DaemonProcess) throws {
    let connection = try RawConnection(daemon)
    try connection.hello()
    self.connection = connection
  }

  /// A client of a daemon in this process (``TurnHarness``).
  init(_ transport: any ForeignTransport) {
    connection = transport
  }

  /// The entries of the `actions` answer, with `"all":true` when `all`.
  func actions(all: Bool) throws -> [JSONObject] {
    let id = takeID()
    try connection.send(#"{"type":"actions","id":\#(id)\#(all ? #","all":true"# : "")}"#)
    guard case .actions(id, .array(let entries))? = try connection.read() else {
      throw DaemonTestError("expected the 'actions' answer to request \(id)")
    }
    return entries.map { entry in
      guard case .object(let fields) = entry else { return [:] }
      return fields
    }
  }

  /// Sends `action` as `{"type":"send","action":…}`; returns the answer.
  func send(_ action: JSONValue) throws -> ServerMessage? {
    let id = takeID()
    try connection.send(#"{"type":"send","id":\#(id),"action":\#(CanonicalJSON.text(action))}"#)
    return try connection.read()
  }

  /// The state's version, from `get`.
  func version() throws -> UInt64 {
    let id = takeID()
    try connection.send(#"{"type":"get","id":\#(id),"path":"/counter"}"#)
    guard case .state(id, let version, _, _)? = try connection.read() else {
      throw DaemonTestError("expected the 'state' answer to request \(id)")
    }
    return version
  }

  private func takeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  /// The action `entry` lists, its placeholders filled with values chosen
  /// by ``value(for:)``; `nil` when the entry has no `json` form.
  static func action(from entry: JSONObject) throws -> JSONValue? {
    guard let template = entry["json"], template != .null else { return nil }
    let arguments = try values(entry["arguments"])
    let ids = try values(entry["ids"])
    return try filled(template, arguments: arguments, ids: ids)
  }

  private static func values(_ list: JSONValue?) throws -> [JSONValue] {
    guard case .array(let items)? = list else { throw DaemonTestError("an entry's arguments and ids are arrays") }
    return try items.map { item in
      guard case .object(let fields) = item, case .string(let type)? = fields["type"], let example = fields["example"]
      else { throw DaemonTestError("an argument is {name, type, example}, got \(item)") }
      return try value(for: type, example: example)
    }
  }

  /// A value of `type` as the document's table of types describes it: a
  /// value of its own for the scalars and enumerations, `null` for an
  /// optional, and the listed `example` for a `(JSON)` type, whose shape
  /// only the example gives.
  static func value(for type: String, example: JSONValue) throws -> JSONValue {
    if type.hasSuffix(" (JSON)") { return type.dropLast(" (JSON)".count).hasSuffix("?") ? .null : example }
    if type.hasSuffix("?") { return .null }
    switch type {
    case "Int": return .int(2)
    case "Double": return .double(70.5)
    case "String": return .string("hello from elsewhere")
    case "Bool": return .bool(true)
    case "UUID": return .string("3F2504E0-4F89-41D3-9A0C-0305E82C3301")
    default:
      let alternatives = type.split(separator: "|").map(String.init)
      guard alternatives.count > 1 else { throw DaemonTestError("'\(type)' is not a type docs/PROTOCOL.md lists") }
      return alternatives.contains("null") ? .null : .string(alternatives[alternatives.count - 1])
    }
  }

  /// `template` with each `{"$argument":i}` and `{"$id":i}` replaced.
  private static func filled(_ template: JSONValue, arguments: [JSONValue], ids: [JSONValue]) throws -> JSONValue {
    switch template {
    case .object(let members):
      if members.count == 1, let (key, value) = members.first, key.hasPrefix("$") {
        guard case .int(let index) = value else { throw DaemonTestError("a placeholder holds an index: \(template)") }
        let values = key == "$argument" ? arguments : key == "$id" ? ids : []
        guard values.indices.contains(index) else { throw DaemonTestError("\(template) names no value") }
        return values[index]
      }
      return .object(try members.mapValues { try filled($0, arguments: arguments, ids: ids) })
    case .array(let elements):
      return .array(try elements.map { try filled($0, arguments: arguments, ids: ids) })
    default:
      return template
    }
  }
}

/// Where a ``ForeignClient`` writes its frames of JSON text and reads the
/// answers: a daemon's socket, or a harness.
protocol ForeignTransport: AnyObject {
  /// Sends one frame holding `json`.
  func send(_ json: String) throws
  /// The next message, or nil if there is none.
  func read() throws -> ServerMessage?
}

extension RawConnection: ForeignTransport {}

/// A ``ForeignClient``'s frames handed to a ``TurnHarness`` as the loop
/// hands it a client's requests, each committed at once, as the loop
/// commits when nothing else has arrived.
final class HarnessTransport<App: HostedApp>: ForeignTransport {
  private let harness: TurnHarness<App>
  private let client: ScriptedClient
  private var unread: [ServerMessage] = []

  init(_ harness: TurnHarness<App>) throws {
    self.harness = harness
    client = try harness.connect("foreign")
  }

  func send(_ json: String) throws {
    let message = try ClientMessage(json: MessageCodec.parse(Array(json.utf8)))
    harness.request(message, from: client)
    harness.commit()
  }

  func read() throws -> ServerMessage? {
    if unread.isEmpty { unread = try client.messages() }
    return unread.isEmpty ? nil : unread.removeFirst()
  }
}
