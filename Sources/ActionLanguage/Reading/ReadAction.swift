import JSON

/// An action a client wrote, read: the action, the JSON its own encoding
/// writes for it, and its command line.
///
/// Whatever the client wrote, a path and words or JSON in any form
/// ``EnumCaseJSON`` reads, what is recorded is ``json``: the action decoded,
/// then encoded again (``CanonicalJSON/value(of:)``), so two clients that
/// mean the same action record the same bytes.
public struct ReadAction<Action> {
  /// The action.
  public let action: Action
  /// The action's own canonical encoding.
  public let json: JSONValue
  /// The command line: the client's words in canonical form when their JSON
  /// was ``json``, else ``json`` described (``ActionPath/describe(_:schema:)``).
  public let summary: String
}

/// Why an action a client wrote is refused, saying what was expected.
public struct ActionReadError: Error, Equatable, CustomStringConvertible {
  /// The message for the client.
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}

extension ActionSchema {
  /// The action of type `Action`, whose schema this is, that `path` and
  /// `arguments` name (``ActionPath``).
  ///
  /// - Throws: ``ActionReadError`` naming what was expected: an unknown
  ///   path, a missing, extra or mistyped argument.
  public func read<Action: Codable>(
    _ type: Action.Type, path: String, arguments: [String]
  ) throws(ActionReadError) -> ReadAction<Action> {
    let parsed: ParsedAction
    do {
      parsed = try ActionPath.read(path: path, arguments: arguments, schema: self)
    } catch {
      throw ActionReadError("\(error)")
    }
    let action = try Self.decode(Action.self, from: parsed.json)
    let json = try Self.encoding(of: action)
    let summary = parsed.json == json ? parsed.summary : nil
    return ReadAction(action: action, json: json, summary: summary ?? ActionPath.describe(json, schema: self))
  }

  /// The action of type `Action`, whose schema this is, that `json` is, in
  /// any form ``EnumCaseJSON`` reads.
  ///
  /// - Throws: ``ActionReadError`` naming what was expected: JSON that is
  ///   not an action of the type, or that holds a member no case or value
  ///   of the schema names (which decoding alone would ignore).
  public func read<Action: Codable>(_ type: Action.Type, json: JSONValue) throws(ActionReadError) -> ReadAction<Action>
  {
    if let problem = problem(in: json) {
      throw ActionReadError(
        "\(Self.excerpt(CanonicalJSON.text(json))) is not an action: \(problem). `tcactl actions` lists the valid ones."
      )
    }
    let action = try Self.decode(Action.self, from: json)
    let encoded = try Self.encoding(of: action)
    return ReadAction(action: action, json: encoded, summary: ActionPath.describe(encoded, schema: self))
  }

  private static func decode<Action: Decodable>(_ type: Action.Type, from json: JSONValue) throws(ActionReadError)
    -> Action
  {
    do {
      return try CanonicalJSON.decode(Action.self, from: json)
    } catch let error as DecodingError {
      throw ActionReadError(
        "\(excerpt(CanonicalJSON.text(json))) is not an action: \(error.briefDescription). "
          + "`tcactl actions` lists the valid ones.")
    } catch {
      throw ActionReadError(
        "\(excerpt(CanonicalJSON.text(json))) is not an action: \(error). `tcactl actions` lists the valid ones.")
    }
  }

  private static func encoding<Action: Encodable>(of action: Action) throws(ActionReadError) -> JSONValue {
    do {
      return try CanonicalJSON.value(of: action)
    } catch {
      // A Codable action encodes (non-finite numbers as strings), unless its
      // own encode(to:) throws.
      throw ActionReadError("the action does not encode as JSON: \(error)")
    }
  }

  /// `text`, or its beginning and its length when it is long: an error
  /// quotes what the client sent, not a megabyte of it.
  static func excerpt(_ text: String, limit: Int = 200) -> String {
    guard text.utf8.count > limit else { return text }
    return "\(text.prefix(limit))… (\(text.utf8.count) bytes)"
  }
}
