import EffectRequests
import JSON

/// A message from a client to the daemon. Every payload is a JSON object whose
/// `type` names the message (docs/PROTOCOL.md, "Client messages").
public enum ClientMessage: Equatable, Sendable {
  /// The first message on every connection: the protocol version, who is
  /// speaking (for logs and `tcactl status`), on a daemon's TCP listener
  /// the token from its `--token-file`, and the store the connection is
  /// for (``StoreName``; the daemon's default store when nil).
  case hello(protocol: Int, client: String, token: String? = nil, store: StoreName? = nil)
  /// Sends an action, given as JSON or as a command-line path with arguments.
  /// Answered by `ack` with the version the action produced, or by `error`;
  /// with `wait`, also by `settled` once every effect that followed from the
  /// action has finished.
  case send(id: Int, action: ActionInput, wait: Bool = false)
  /// Asks for the state (or the part at a JSON Pointer), now or, with `at`,
  /// as of an earlier version the journal still holds. Answered by `state`.
  case get(id: Int, path: String, at: UInt64? = nil)
  /// Subscribes to the state at a JSON Pointer: a snapshot, then every change.
  /// With `since`, resumes after that version if the daemon still holds it
  /// and, when `epoch` is given, it is the daemon's current epoch.
  case subscribe(id: Int, path: String, since: UInt64?, epoch: String? = nil)
  /// Asks for the action paths with their arguments and JSON forms: those a
  /// client may send, or with `all` the internal ones too, marked. Answered
  /// by `actions`.
  case actions(id: Int, all: Bool = false)
  /// Asks for the daemon's status. Answered by `status`.
  case status(id: Int)
  /// Asks for the action log from the journal: the records after version
  /// `since`, or the last `last` of them, or both (the last `last` after
  /// `since`). Answered by `log`, a page at a time; with `follow`, once the
  /// last page is sent, every new record follows as a `record`.
  case log(id: Int, since: UInt64?, last: Int?, follow: Bool)
  /// Asks what the state at version `at` (the current one when `nil`) would
  /// be with an earlier version's action left out or replaced: the recorded
  /// history is replayed through the daemon's reducers from the edited
  /// version on. Answered by `whatIf`.
  case whatIf(id: Int, at: UInt64?, edit: HistoryEdit)
  /// Asks for the daemon's stores, open and closed, in name order: at most
  /// `limit` named ones (1 to ``StoreListing/maximumLimit``, 100 when nil),
  /// those named after `after`; when `after` is nil, the default store
  /// first, beside them. Answered by `stores`.
  case stores(id: Int, after: StoreName? = nil, limit: Int? = nil)

  /// A change to the recorded history, for `whatIf`.
  public enum HistoryEdit: Hashable, Sendable {
    /// The action of version `version` left out.
    case without(version: UInt64)
    /// The action of version `version` replaced by `action`.
    case replace(version: UInt64, action: ActionInput)

    /// The version it edits.
    public var version: UInt64 {
      switch self {
      case .without(let version), .replace(let version, _): version
      }
    }
  }

  /// How a client names an action.
  public enum ActionInput: Hashable, Sendable {
    /// The action's JSON, as its Swift `Codable` form encodes it.
    case json(JSONValue)
    /// A command-line path and its arguments: `cart.addItem` and `["3"]`.
    case path(String, arguments: [String])
  }

  /// The request id the daemon echoes in its answer, if the message has one.
  public var id: Int? {
    switch self {
    case .hello: nil
    case .send(let id, _, _), .get(let id, _, _), .subscribe(let id, _, _, _), .actions(let id, _), .status(let id),
      .log(let id, _, _, _), .whatIf(let id, _, _), .stores(let id, _, _):
      id
    }
  }

  /// The same request under the id `id` (a `hello` has none and is
  /// returned as it is): for a client that forwards requests it did not
  /// number, such as the web client's.
  public func withID(_ id: Int) -> ClientMessage {
    switch self {
    case .hello: self
    case .send(_, let action, let wait): .send(id: id, action: action, wait: wait)
    case .get(_, let path, let at): .get(id: id, path: path, at: at)
    case .subscribe(_, let path, let since, let epoch): .subscribe(id: id, path: path, since: since, epoch: epoch)
    case .actions(_, let all): .actions(id: id, all: all)
    case .status: .status(id: id)
    case .log(_, let since, let last, let follow): .log(id: id, since: since, last: last, follow: follow)
    case .whatIf(_, let at, let edit): .whatIf(id: id, at: at, edit: edit)
    case .stores(_, let after, let limit): .stores(id: id, after: after, limit: limit)
    }
  }

  /// The message as JSON.
  public var json: JSONValue {
    switch self {
    case .hello(let version, let client, let token, let store):
      var object: JSONObject = ["type": .string("hello"), "protocol": .int(version), "client": .string(client)]
      if let token { object["token"] = .string(token) }
      if let store { object["store"] = .string(store.text) }
      return .object(object)
    case .send(let id, let input, let wait):
      var object: JSONObject = ["type": .string("send"), "id": .int(id)]
      input.write(to: &object)
      if wait { object["wait"] = .bool(true) }
      return .object(object)
    case .get(let id, let path, let at):
      var object: JSONObject = ["type": .string("get"), "id": .int(id), "path": .string(path)]
      if let at { object["at"] = .int(Int(clamping: at)) }
      return .object(object)
    case .subscribe(let id, let path, let since, let epoch):
      var object: JSONObject = ["type": .string("subscribe"), "id": .int(id), "path": .string(path)]
      if let since { object["since"] = .int(Int(clamping: since)) }
      if let epoch { object["epoch"] = .string(epoch) }
      return .object(object)
    case .actions(let id, let all):
      var object: JSONObject = ["type": .string("actions"), "id": .int(id)]
      if all { object["all"] = .bool(true) }
      return .object(object)
    case .status(let id):
      return .object(["type": .string("status"), "id": .int(id)])
    case .log(let id, let since, let last, let follow):
      var object: JSONObject = ["type": .string("log"), "id": .int(id)]
      if let since { object["since"] = .int(Int(clamping: since)) }
      if let last { object["last"] = .int(last) }
      if follow { object["follow"] = .bool(true) }
      return .object(object)
    case .whatIf(let id, let at, let edit):
      var object: JSONObject = ["type": .string("whatIf"), "id": .int(id)]
      if let at { object["at"] = .int(Int(clamping: at)) }
      switch edit {
      case .without(let version):
        object["without"] = .int(Int(clamping: version))
      case .replace(let version, let input):
        object["replace"] = .int(Int(clamping: version))
        input.write(to: &object)
      }
      return .object(object)
    case .stores(let id, let after, let limit):
      var object: JSONObject = ["type": .string("stores"), "id": .int(id)]
      if let after { object["after"] = .string(after.text) }
      if let limit { object["limit"] = .int(limit) }
      return .object(object)
    }
  }

  /// The message types a client may send, for error messages.
  public static let types = ["hello", "send", "get", "subscribe", "actions", "status", "log", "whatIf", "stores"]

  /// Reads a message from its JSON.
  public init(json: JSONValue) throws(MessageError) {
    guard case .object(let object) = json else {
      throw MessageError(.invalidMessage, "a message must be a JSON object with a 'type', got \(json)")
    }
    guard case .string(let type)? = object["type"] else {
      throw MessageError(
        .invalidMessage, "a message needs a string 'type'; expected one of: \(Self.types.joined(separator: ", "))")
    }
    switch type {
    case "hello":
      self = .hello(
        protocol: try object.int("protocol", in: type), client: try object.optionalString("client", in: type) ?? "",
        token: try object.optionalString("token", in: type),
        store: try object.optionalString("store", in: type).map { (name) throws(MessageError) in try StoreName(name) })
    case "send":
      let id = try object.int("id", in: type)
      let wait = try object.optionalBool("wait", in: type) ?? false
      self = .send(id: id, action: try ActionInput(object, in: type), wait: wait)
    case "get":
      let path = try object.optionalString("path", in: type) ?? ""
      try ClientLimits.check(path: path, in: type)
      self = .get(id: try object.int("id", in: type), path: path, at: try object.optionalUInt64("at", in: type))
    case "subscribe":
      let path = try object.optionalString("path", in: type) ?? ""
      try ClientLimits.check(path: path, in: type)
      self = .subscribe(
        id: try object.int("id", in: type), path: path, since: try object.optionalUInt64("since", in: type),
        epoch: try object.optionalString("epoch", in: type))
    case "actions":
      self = .actions(id: try object.int("id", in: type), all: try object.optionalBool("all", in: type) ?? false)
    case "status":
      self = .status(id: try object.int("id", in: type))
    case "log":
      let last = try object.optionalInt("last", in: type)
      if let last, last < 1 {
        throw MessageError(.invalidMessage, "'log' needs 'last' to be at least 1, got \(last)")
      }
      self = .log(
        id: try object.int("id", in: type), since: try object.optionalUInt64("since", in: type), last: last,
        follow: try object.optionalBool("follow", in: type) ?? false)
    case "whatIf":
      let id = try object.int("id", in: type)
      let at = try object.optionalUInt64("at", in: type)
      switch (try object.optionalUInt64("without", in: type), try object.optionalUInt64("replace", in: type)) {
      case (let version?, nil):
        self = .whatIf(id: id, at: at, edit: .without(version: version))
      case (nil, let version?):
        self = .whatIf(id: id, at: at, edit: .replace(version: version, action: try ActionInput(object, in: type)))
      default:
        throw MessageError(
          .invalidMessage,
          "'whatIf' needs either 'without' (the version whose action to leave out) or 'replace' (the version whose "
            + "action to replace) with 'action' or 'path' and 'arguments'")
      }
    case "stores":
      let limit = try object.optionalInt("limit", in: type)
      if let limit, !(1...StoreListing.maximumLimit).contains(limit) {
        throw MessageError(
          .invalidMessage, "'stores' needs 'limit' to be from 1 to \(StoreListing.maximumLimit), got \(limit)")
      }
      var after: StoreName?
      if let name = try object.optionalString("after", in: type) {
        do {
          after = try StoreName(name)
        } catch {
          throw MessageError(.invalidMessage, "'stores' needs 'after' to be a store's name: \(error.message)")
        }
      }
      self = .stores(id: try object.int("id", in: type), after: after, limit: limit)
    default:
      throw MessageError(
        .unknownType, "unknown message type '\(type)'; expected one of: \(Self.types.joined(separator: ", "))")
    }
  }
}

extension ClientMessage.ActionInput {
  /// Reads the action of a message of `type`: `action` (its JSON), or
  /// `path` with `arguments`.
  init(_ object: JSONObject, in type: String) throws(MessageError) {
    if let action = object["action"] {
      self = .json(action)
    } else if let path = try object.optionalString("path", in: type) {
      let arguments = try object.strings("arguments", in: type)
      try ClientLimits.check(path: path, arguments: arguments)
      self = .path(path, arguments: arguments)
    } else {
      throw MessageError(
        .invalidMessage,
        "'\(type)' needs either 'action' (the action's JSON) or 'path' (e.g. \"cart.addItem\") with 'arguments'")
    }
  }

  /// Writes the action into a message's object.
  func write(to object: inout JSONObject) {
    switch self {
    case .json(let action):
      object["action"] = action
    case .path(let path, let arguments):
      object["path"] = .string(path)
      object["arguments"] = .array(arguments.map(JSONValue.string))
    }
  }
}
