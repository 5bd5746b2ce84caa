import ActionLanguage
import ComposableCore
import JSON
import Wire

/// Reads the actions clients send, once each, as the app's tests read them
/// (``ActionSchema/read(_:path:arguments:)``, ``ActionSchema/read(_:json:)``):
/// what is recorded is always the action's own canonical encoding, whatever
/// the client wrote. Refuses an internal action a client may not send
/// (``ActionAccess``); repeated actions are read from a memo
/// (``SentActionMemo``). Confined to the store loop's thread.
final class ActionReader<Action: Codable> {
  let schema: ActionSchema
  /// Which actions clients may send, and the `actions` listings.
  var access: ActionAccess
  private let memo = SentActionMemo<Action>()

  init(schema: ActionSchema, allowsInternal: Bool) {
    self.schema = schema
    self.access = ActionAccess(schema: schema, allowsInternal: allowsInternal)
  }

  /// The action `input` names, with how the client wrote it put in
  /// `reading`; an internal action a client may not send is refused
  /// (``ActionAccess``).
  func read(_ input: ClientMessage.ActionInput, reading: inout ActionReading) throws(MessageError) -> Action {
    try memo.action(for: input, reading: &reading) { (reading) throws(MessageError) in
      try Self.read(input, schema: schema, access: access, reading: &reading)
    }
  }

  /// The JSON of the action `input` names, any action of the schema's
  /// (internal ones too): for a `whatIf`, which applies nothing.
  func json(for input: ClientMessage.ActionInput) throws(MessageError) -> JSONValue {
    try Self.read(input, schema: schema).json
  }

  private static func read(
    _ input: ClientMessage.ActionInput, schema: ActionSchema, access: ActionAccess, reading: inout ActionReading
  ) throws(MessageError) -> Action {
    let read = try Self.read(input, schema: schema)
    if let refusal = access.refusal(of: read.json) { throw MessageError(.invalidAction, refusal) }
    reading = ActionReading(json: read.json, canonical: CanonicalJSON.encode(read.json), summary: read.summary)
    return read.action
  }

  private static func read(_ input: ClientMessage.ActionInput, schema: ActionSchema) throws(MessageError)
    -> ReadAction<Action>
  {
    do {
      switch input {
      case .json(let json): return try schema.read(Action.self, json: json)
      case .path(let path, let arguments): return try schema.read(Action.self, path: path, arguments: arguments)
      }
    } catch {
      throw MessageError(.invalidAction, error.description)
    }
  }
}
