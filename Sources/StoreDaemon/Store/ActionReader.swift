import ActionLanguage
import ComposableCore
import JSON
import Wire

/// Reads the actions clients send, once each: a path and arguments
/// (`pour 2`) are parsed into the action's JSON and its command line
/// in one pass, the JSON decoded into the action and written as canonical
/// bytes; the command line is the client's own words, in canonical form. An
/// action written as JSON is decoded, then encoded and described, so that
/// what is recorded is canonical whatever the client wrote. Repeated actions
/// are read from a memo (``SentActionMemo``). Confined to the store loop's
/// thread.
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
    let json: JSONValue
    switch input {
    case .json(let given):
      json = given
    case .path(let path, let arguments):
      do {
        json = try ActionPath.read(path: path, arguments: arguments, schema: schema).json
      } catch {
        throw MessageError(.invalidAction, "\(error)")
      }
    }
    let action = try Self.decoded(json)
    do {
      return try CanonicalJSON.value(of: action)
    } catch {
      // Unreachable with Codable actions (non-finite numbers encode as strings).
      throw MessageError(.invalidAction, "the action does not encode as JSON: \(error)")
    }
  }

  private static func read(
    _ input: ClientMessage.ActionInput, schema: ActionSchema, access: ActionAccess, reading: inout ActionReading
  ) throws(MessageError) -> Action {
    switch input {
    case .json(let json):
      return try encoded(decoded(json), schema: schema, access: access, reading: &reading)
    case .path(let path, let arguments):
      let parsed: ParsedAction
      do {
        parsed = try ActionPath.read(path: path, arguments: arguments, schema: schema)
      } catch {
        throw MessageError(.invalidAction, "\(error)")
      }
      let action = try decoded(parsed.json)
      // A JSON literal among the words is canonical only as the action's
      // own encoding writes it.
      guard let summary = parsed.summary else {
        return try encoded(action, schema: schema, access: access, reading: &reading)
      }
      assert(
        (try? CanonicalJSON.value(of: action)) == parsed.json
          && summary == ActionPath.describe(parsed.json, schema: schema),
        "\(path) \(arguments) read as \(parsed.json) (\(summary)), which its encoding does not give back")
      if let refusal = access.refusal(of: parsed.json) { throw MessageError(.invalidAction, refusal) }
      reading = ActionReading(json: parsed.json, canonical: CanonicalJSON.encode(parsed.json), summary: summary)
      return action
    }
  }

  private static func decoded(_ json: JSONValue) throws(MessageError) -> Action {
    do {
      return try CanonicalJSON.decode(Action.self, from: json)
    } catch {
      throw MessageError(
        .invalidAction,
        "\(excerpt(CanonicalJSON.text(json))) is not an action: \(error). `tcactl actions` lists the valid ones.")
    }
  }

  /// The action, with its reading made of its JSON as its own encoding
  /// writes it, that JSON's bytes, and its command line.
  private static func encoded(
    _ action: Action, schema: ActionSchema, access: ActionAccess, reading: inout ActionReading
  ) throws(MessageError) -> Action {
    let json: JSONValue
    do {
      json = try CanonicalJSON.value(of: action)
    } catch {
      // Unreachable with Codable actions (non-finite numbers encode as strings).
      throw MessageError(.invalidAction, "the action does not encode as JSON: \(error)")
    }
    if let refusal = access.refusal(of: json) { throw MessageError(.invalidAction, refusal) }
    reading = ActionReading(
      json: json, canonical: CanonicalJSON.encode(json), summary: ActionPath.describe(json, schema: schema))
    return action
  }

  /// `text`, or its beginning and its length when it is long: an error
  /// quotes what the client sent, not a megabyte of it.
  static func excerpt(_ text: String, limit: Int = 200) -> String {
    guard text.utf8.count > limit else { return text }
    return "\(text.prefix(limit))… (\(text.utf8.count) bytes)"
  }
}
