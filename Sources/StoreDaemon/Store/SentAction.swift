import ComposableCore
import JSON

/// A client's action as it was read on arrival: the action, its JSON and that
/// JSON's canonical bytes (which the diff frame and the journal record both
/// hold), and its command line as the log and the diffs show it.
struct SentAction<Action> {
  let action: Action
  let json: JSONValue
  let canonical: [UInt8]
  let summary: String
}

/// Who sent an action being reduced, carried with it from the loop to its
/// publication and its journal record.
struct ActionSender<Action> {
  /// Tags the action and everything that follows from it.
  let origin: Origin
  /// Who sent it, as its journal record's `origin` says.
  let record: JSONValue
  /// The client's action as read on arrival; `nil` for an action this
  /// daemon made (the recovery's) or an effect sent.
  let sent: SentAction<Action>?

  /// An action that an effect of the action of `origin` sent.
  static func effect(origin: Origin) -> ActionSender<Action> {
    ActionSender(
      origin: origin, record: .object(["effect": .bool(true), "origin": .int(Int(clamping: origin))]), sent: nil)
  }
}
