import ComposableCore
import JSON
import Journal

/// What the daemon publishes and journals of a client's action, read once on
/// arrival: its JSON and that JSON's canonical bytes (which the diff frame and
/// the journal record both hold), and its command line. Not generic over the
/// app's action, so that the code that publishes it is not either.
struct ActionReading {
  let json: JSONValue
  let canonical: [UInt8]
  let summary: String
  /// `summary` as a JSON string, as the diff frame holds it.
  let summaryJSON: [UInt8]

  init(json: JSONValue, canonical: [UInt8], summary: String) {
    (self.json, self.canonical, self.summary) = (json, canonical, summary)
    summaryJSON = CanonicalJSON.encode(.string(summary))
  }

  /// What a reading is before the action is read.
  static let unread = ActionReading(json: .null, canonical: [], summary: "")
}

/// Who sent an action being reduced, carried with it from the loop to its
/// publication and its journal record.
struct ActionSender {
  /// Tags the action and everything that follows from it.
  let origin: Origin
  /// Who sent it, as the metrics count it.
  let kind: ActionCounts.Sender
  /// Who sent it, as its journal record's `origin` says but for the
  /// `origin` number itself (``record``).
  let members: JSONObject
  /// How the client wrote the action, read on arrival; `nil` for an action
  /// this daemon made (the recovery's) or an effect sent.
  let sent: ActionReading?
  /// The canonical JSON of `record` up to its `origin` number
  /// (``OriginPrefix``), when known: the journal writes it and the number
  /// rather than encoding the record again.
  var recordPrefix: OriginPrefix?

  /// Who sent it, as its journal record's `origin` says: ``members`` and
  /// the `origin`. Made when asked for (the log's followers read it), not
  /// for every action.
  var record: JSONValue {
    var record = members
    record["origin"] = .int(Int(clamping: origin))
    return .object(record)
  }

  /// ``record`` as the journal writes it, when ``recordPrefix`` is known:
  /// the prefix and the number, with no bytes made for this action.
  var recordOrigin: RecordOrigin? {
    recordPrefix.map { .prefixed($0.bytes, origin: origin) }
  }

  /// An action that an effect of the action of `origin` sent.
  static func effect(origin: Origin) -> ActionSender {
    ActionSender(origin: origin, kind: .effect, members: effectMembers, sent: nil, recordPrefix: effectPrefix)
  }

  private static let effectMembers: JSONObject = ["effect": .bool(true)]
  private static let effectPrefix = OriginPrefix(effectMembers)
}

/// The canonical JSON of a record's `origin` object whose last member is
/// `origin`, written up to that member's number: the object with the
/// number, and `}`, is the canonical JSON of the whole. Nil when `origin`
/// would not be the last member in key order.
struct OriginPrefix {
  /// The object's canonical JSON up to and including `"origin":`.
  let bytes: [UInt8]

  /// The prefix of `members` with an `origin` member added.
  init?(_ members: JSONObject) {
    var object = members
    object["origin"] = .int(0)
    let whole = CanonicalJSON.encode(.object(object))
    let tail = Array(#","origin":0}"#.utf8)
    guard whole.count > tail.count, Array(whole.suffix(tail.count)) == tail else { return nil }
    bytes = Array(whole.dropLast(2))
  }
}
