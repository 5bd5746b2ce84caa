import EffectRequests
import JSON

/// A message from the daemon to a client (docs/PROTOCOL.md, "Daemon messages").
public enum ServerMessage: Equatable, Sendable {
  /// The answer to `hello`: the daemon's protocol, name, current state version,
  /// and the epoch that version belongs to (versions are comparable only
  /// within one epoch).
  case welcome(protocol: Int, server: String, version: UInt64, epoch: String, store: StoreName? = nil)
  /// The action of `send` `id` was reduced and produced `version`.
  case ack(id: Int, version: UInt64)
  /// Everything that followed from the action of `send` `id` (sent with
  /// `wait`) has finished; `changes` lists each change it made as
  /// `{"version", "action", "patch"}`, and `version` is the state version then.
  case settled(id: Int, version: UInt64, changes: JSONValue)
  /// A request (`id`) or the connection (`id` nil) failed.
  case error(id: Int?, code: WireErrorCode, message: String)
  /// A standby of a replicated store refused the `send` `id`: the error
  /// with code `not_leader`, and the store's leader when it knows one.
  case notLeader(id: Int, message: String, leader: StoreLeader?)
  /// The answer to `get`: the state at `path` as of `version`.
  case state(id: Int, version: UInt64, path: String, value: JSONValue)
  /// A subscription's full view at `version`: the first message of a
  /// subscription, and again after a resync. `notice` says why a snapshot came
  /// instead of the diffs asked for.
  case snapshot(version: UInt64, path: String, value: JSONValue, notice: Notice?)
  /// One change: the action that produced `version`, rendered as a command
  /// line in `summary`, and the JSON Patch from the previous version (relative
  /// to the subscription's path).
  case diff(version: UInt64, action: JSONValue, summary: String, patch: JSONValue)
  /// Sent to an idle subscriber now and then, so it knows the daemon is alive.
  case heartbeat(version: UInt64)
  /// Something a subscriber must know, e.g. that it is being disconnected.
  case notice(Notice, message: String)
  /// The answer to `actions`: the action paths with their arguments and
  /// JSON forms (``ActionPathEntry`` as JSON).
  case actions(id: Int, actions: JSONValue)
  /// The answer to `status`.
  case status(id: Int, report: JSONValue)
  /// The daemon closes the connection, for the reason given.
  case goodbye(reason: String)
  /// A page of the action log asked for by `log` `id`: its records, oldest
  /// first, up to version `through`; `more` says that the records after the
  /// last one were left for another request (with `since` = that record's
  /// version).
  case log(id: Int, records: [LogEntry], through: UInt64, more: Bool)
  /// A new record for a client that follows the log.
  case record(LogEntry)
  /// The answer to `whatIf` `id`: the state at `version` as recorded
  /// (`recorded`, in the daemon's current schema) and the patch from it to
  /// the state with version `edited`'s action left out or replaced;
  /// `notes` says what the replay met (an action dropped, one that no longer
  /// reads).
  case whatIf(id: Int, version: UInt64, edited: UInt64, recorded: JSONValue, patch: JSONValue, notes: [String])
  /// A page of the daemon's stores asked for by `stores` `id`, in name
  /// order; `more` says that stores after the last were left for another
  /// request (with `after` = its name).
  case stores(id: Int, stores: [StoreListing], more: Bool)

  /// Why a subscriber got a snapshot or a notice instead of the next diff.
  public enum Notice: String, Equatable, Sendable, CaseIterable {
    /// The subscriber fell behind and its queue was dropped; a snapshot follows.
    case resynced
    /// The version to resume from is no longer held; a snapshot follows.
    case compacted
    /// The subscriber fell behind too often and is disconnected.
    case lagged
  }

  /// The id of the request this message is the answer to: nil for what is
  /// no request's answer (subscription traffic, a `settled`, a `goodbye`,
  /// an error of the connection's) and for a refusal (`error`, `notLeader`),
  /// which a client reads apart.
  public var answerID: Int? {
    switch self {
    case .ack(let id, _), .state(let id, _, _, _), .actions(let id, _), .status(let id, _), .log(let id, _, _, _),
      .whatIf(let id, _, _, _, _, _), .stores(let id, _, _):
      id
    case .welcome, .settled, .error, .notLeader, .snapshot, .diff, .heartbeat, .notice, .goodbye, .record:
      nil
    }
  }

  /// The message types the daemon sends.
  public static let types = [
    "welcome", "ack", "settled", "error", "state", "snapshot", "diff", "heartbeat", "notice", "actions", "status",
    "goodbye",
    "log", "record", "whatIf", "stores",
  ]

  /// The message as JSON.
  public var json: JSONValue {
    switch self {
    case .welcome(let version, let server, let stateVersion, let epoch, let store):
      var object: JSONObject = [
        "type": .string("welcome"), "protocol": .int(version), "server": .string(server),
        "version": .int(Int(clamping: stateVersion)), "epoch": .string(epoch),
      ]
      if let store { object["store"] = .string(store.text) }
      return .object(object)
    case .ack(let id, let version):
      return .object(["type": .string("ack"), "id": .int(id), "version": .int(Int(clamping: version))])
    case .settled(let id, let version, let changes):
      return .object([
        "type": .string("settled"), "id": .int(id), "version": .int(Int(clamping: version)), "changes": changes,
      ])
    case .error(let id, let code, let message):
      return .object([
        "type": .string("error"), "id": id.map(JSONValue.int) ?? .null, "code": .string(code.rawValue),
        "message": .string(message),
      ])
    case .notLeader(let id, let message, let leader):
      var object: JSONObject = [
        "type": .string("error"), "id": .int(id), "code": .string(WireErrorCode.notLeader.rawValue),
        "message": .string(message),
      ]
      if let leader { object["leader"] = leader.json }
      return .object(object)
    case .state(let id, let version, let path, let value):
      return .object([
        "type": .string("state"), "id": .int(id), "version": .int(Int(clamping: version)), "path": .string(path),
        "state": value,
      ])
    case .snapshot(let version, let path, let value, let notice):
      var object: JSONObject = [
        "type": .string("snapshot"), "version": .int(Int(clamping: version)), "path": .string(path), "state": value,
      ]
      if let notice { object["notice"] = .string(notice.rawValue) }
      return .object(object)
    case .diff(let version, let action, let summary, let patch):
      return .object([
        "type": .string("diff"), "version": .int(Int(clamping: version)), "action": action, "summary": .string(summary),
        "patch": patch,
      ])
    case .heartbeat(let version):
      return .object(["type": .string("heartbeat"), "version": .int(Int(clamping: version))])
    case .notice(let notice, let message):
      return .object(["type": .string("notice"), "notice": .string(notice.rawValue), "message": .string(message)])
    case .actions(let id, let actions):
      return .object(["type": .string("actions"), "id": .int(id), "actions": actions])
    case .status(let id, let report):
      return .object(["type": .string("status"), "id": .int(id), "status": report])
    case .goodbye(let reason):
      return .object(["type": .string("goodbye"), "reason": .string(reason)])
    case .log(let id, let records, let through, let more):
      return .object([
        "type": .string("log"), "id": .int(id), "records": .array(records.map(\.json)),
        "through": .int(Int(clamping: through)), "more": .bool(more),
      ])
    case .record(let entry):
      return .object(["type": .string("record"), "record": entry.json])
    case .whatIf(let id, let version, let edited, let recorded, let patch, let notes):
      return .object([
        "type": .string("whatIf"), "id": .int(id), "version": .int(Int(clamping: version)),
        "edited": .int(Int(clamping: edited)), "recorded": recorded, "patch": patch,
        "notes": .array(notes.map(JSONValue.string)),
      ])
    case .stores(let id, let stores, let more):
      return .object([
        "type": .string("stores"), "id": .int(id), "stores": .array(stores.map(\.json)), "more": .bool(more),
      ])
    }
  }

  /// Reads a message from its JSON.
  public init(json: JSONValue) throws(MessageError) {
    guard case .object(let object) = json, case .string(let type)? = object["type"] else {
      throw MessageError(.invalidMessage, "a message must be a JSON object with a string 'type', got \(json)")
    }
    func version(_ key: String = "version") throws(MessageError) -> UInt64 {
      guard let value = try object.optionalUInt64(key, in: type) else {
        throw MessageError(.invalidMessage, "'\(type)' needs '\(key)' to be an integer")
      }
      return value
    }
    func value(_ key: String) throws(MessageError) -> JSONValue {
      guard let value = object[key] else { throw MessageError(.invalidMessage, "'\(type)' needs '\(key)'") }
      return value
    }
    switch type {
    case "welcome":
      self = .welcome(
        protocol: try object.int("protocol", in: type), server: try object.string("server", in: type),
        version: try version(), epoch: try object.optionalString("epoch", in: type) ?? "",
        store: try object.optionalString("store", in: type).map { (name) throws(MessageError) in try StoreName(name) })
    case "ack":
      self = .ack(id: try object.int("id", in: type), version: try version())
    case "settled":
      self = .settled(id: try object.int("id", in: type), version: try version(), changes: try value("changes"))
    case "error":
      let codeName = try object.string("code", in: type)
      if codeName == WireErrorCode.notLeader.rawValue, let id = try object.optionalInt("id", in: type) {
        self = .notLeader(
          id: id, message: try object.string("message", in: type),
          leader: try object["leader"].map { json throws(MessageError) in try StoreLeader(json: json) })
        return
      }
      self = .error(
        id: try object.optionalInt("id", in: type), code: WireErrorCode(rawValue: codeName) ?? .internal,
        message: try object.string("message", in: type))
    case "state":
      self = .state(
        id: try object.int("id", in: type), version: try version(), path: try object.string("path", in: type),
        value: try value("state"))
    case "snapshot":
      let notice = try object.optionalString("notice", in: type).flatMap(Notice.init(rawValue:))
      self = .snapshot(
        version: try version(), path: try object.string("path", in: type), value: try value("state"), notice: notice)
    case "diff":
      self = .diff(
        version: try version(), action: try value("action"), summary: try object.string("summary", in: type),
        patch: try value("patch"))
    case "heartbeat":
      self = .heartbeat(version: try version())
    case "notice":
      guard let notice = Notice(rawValue: try object.string("notice", in: type)) else {
        throw MessageError(.invalidMessage, "'notice' names no known notice: \(json)")
      }
      self = .notice(notice, message: try object.string("message", in: type))
    case "actions":
      self = .actions(id: try object.int("id", in: type), actions: try value("actions"))
    case "status":
      self = .status(id: try object.int("id", in: type), report: try value("status"))
    case "goodbye":
      self = .goodbye(reason: try object.string("reason", in: type))
    case "log":
      guard case .array(let elements) = try value("records") else {
        throw MessageError(.invalidMessage, "'log' needs 'records' to be an array")
      }
      var records: [LogEntry] = []
      for element in elements { records.append(try LogEntry(json: element)) }
      self = .log(
        id: try object.int("id", in: type), records: records, through: try version("through"),
        more: try object.optionalBool("more", in: type) ?? false)
    case "record":
      self = .record(try LogEntry(json: try value("record")))
    case "whatIf":
      self = .whatIf(
        id: try object.int("id", in: type), version: try version(), edited: try version("edited"),
        recorded: try value("recorded"), patch: try value("patch"),
        notes: try object.strings("notes", in: type))
    case "stores":
      guard case .array(let elements) = try value("stores") else {
        throw MessageError(.invalidMessage, "'stores' needs 'stores' to be an array")
      }
      var stores: [StoreListing] = []
      for element in elements { stores.append(try StoreListing(json: element)) }
      self = .stores(
        id: try object.int("id", in: type), stores: stores, more: try object.optionalBool("more", in: type) ?? false)
    default:
      throw MessageError(
        .unknownType, "unknown message type '\(type)'; expected one of: \(Self.types.joined(separator: ", "))")
    }
  }
}
