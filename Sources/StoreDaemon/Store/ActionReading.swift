import ComposableCore
import JSON

/// What the daemon publishes and journals of a client's action, read once on
/// arrival: its JSON and that JSON's canonical bytes (which the diff frame and
/// the journal record both hold), and its command line. Not generic over the
/// app's action, so that the code that publishes it is not either.
struct ActionReading {
  let json: JSONValue
  let canonical: [UInt8]
  let summary: String

  /// What a reading is before the action is read.
  static let unread = ActionReading(json: .null, canonical: [], summary: "")
}

/// Who sent an action being reduced, carried with it from the loop to its
/// publication and its journal record.
struct ActionSender {
  /// Tags the action and everything that follows from it.
  let origin: Origin
  /// Who sent it, as its journal record's `origin` says.
  let record: JSONValue
  /// How the client wrote the action, read on arrival; `nil` for an action
  /// this daemon made (the recovery's) or an effect sent.
  let sent: ActionReading?

  /// An action that an effect of the action of `origin` sent.
  static func effect(origin: Origin) -> ActionSender {
    ActionSender(
      origin: origin, record: .object(["effect": .bool(true), "origin": .int(Int(clamping: origin))]), sent: nil)
  }
}
