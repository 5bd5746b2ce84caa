import ActionLanguage
import ComposableCore
import JSON
import Wire

/// Which actions clients may send and see listed: those a person may send,
/// not the internal ones that answer effects (``InternalSender``), unless the
/// daemon runs with `--allow-internal-actions` for debugging.
///
/// A client that sent an effect's answer would make the state claim what did
/// not happen: a timer's `boiled` would show the water hot while it still
/// boils, a storage worker's empty `loaded` an empty history while storage
/// still holds the records.
struct ActionAccess {
  let schema: ActionSchema
  /// Whether clients may send internal actions (`--allow-internal-actions`).
  let allowsInternal: Bool
  /// The `actions` answer without internal actions, then with every one;
  /// built at the first `actions` request, not on the way of the first send.
  private var listings: (clients: JSONValue, all: JSONValue)?

  init(schema: ActionSchema, allowsInternal: Bool) {
    self.schema = schema
    self.allowsInternal = allowsInternal
  }

  /// The entries of the `actions` answer: those a client may send, or with
  /// `all` every action, internal ones marked.
  mutating func listing(all: Bool) -> JSONValue {
    let built = listings ?? Self.listings(of: schema)
    listings = built
    return all ? built.all : built.clients
  }

  private static func listings(of schema: ActionSchema) -> (clients: JSONValue, all: JSONValue) {
    // Unreachable failures: the entries hold strings, booleans and JSON values.
    (
      (try? CanonicalJSON.value(of: schema.clientPaths)) ?? .array([]),
      (try? CanonicalJSON.value(of: schema.allPaths)) ?? .array([])
    )
  }

  /// Why a client may not send `action`, naming its path and who sends it,
  /// or `nil` when it may.
  func refusal(of action: JSONValue) -> String? {
    guard !allowsInternal, let sender = schema.internalSender(of: action) else { return nil }
    let path = ActionPath.command(for: action, schema: schema)?.path ?? ActionPath.describe(action, schema: schema)
    return "\(path) is sent by \(sender), not by clients; "
      + "start \(DaemonName.current) with --allow-internal-actions to send it for debugging"
  }
}
