import JSON

/// How the reader shows JSON kept in an older format (``JournalFormat``) as
/// this build writes it: the app's types know, the journal does not.
///
/// ``reencoding(state:action:)`` decodes with ``JSONValueDecoder``, which
/// reads both shapes of enums, and encodes again. A value that does not
/// decode as today's type (a state of another build's shape) is shown as it
/// was recorded.
public struct JournalUpgrade: Sendable {
  /// A past state in the current format.
  public var state: @Sendable (JSONValue) throws -> JSONValue
  /// A recorded action in the current format.
  public var action: @Sendable (JSONValue) throws -> JSONValue

  public init(
    state: @escaping @Sendable (JSONValue) throws -> JSONValue,
    action: @escaping @Sendable (JSONValue) throws -> JSONValue
  ) {
    self.state = state
    self.action = action
  }

  /// Decodes a state as `State` and an action as `Action`, and encodes them
  /// again as the daemon publishes them.
  public static func reencoding<State: Codable & Sendable, Action: Codable & Sendable>(
    state: State.Type, action: Action.Type
  )
    -> JournalUpgrade
  {
    JournalUpgrade(
      state: { try JSONValueEncoder.encode(JSONValueDecoder.decode(State.self, from: $0)) },
      action: { try JSONValueEncoder.encode(JSONValueDecoder.decode(Action.self, from: $0)) })
  }
}
