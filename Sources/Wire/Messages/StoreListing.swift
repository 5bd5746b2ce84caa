import JSON

/// One store as the answer to `stores` lists it (docs/PROTOCOL.md,
/// "Stores"): open or closed, its version, its clients, what it holds on
/// disk and its newest action.
public struct StoreListing: Equatable, Sendable {
  /// The most stores one `stores` answer lists.
  public static let maximumLimit = 1000
  /// How many it lists when the request names no `limit`.
  public static let defaultLimit = 100

  /// The store's name; nil for the daemon's default store.
  public var name: StoreName?
  /// Whether the store is open (in memory, its journal open) now.
  public var isOpen: Bool
  /// The store's version: the live one when it is open, its journal's last
  /// when it is closed; nil when its journal could not be read (``problem``
  /// says why).
  public var version: UInt64?
  /// The clients connected to it.
  public var clients: Int
  /// The bytes its files take on disk: journal, snapshots, stored documents.
  public var bytes: Int
  /// Its newest action as the log shows it; nil when its journal holds none
  /// since its last snapshot.
  public var lastAction: LastAction?
  /// Why its journal could not be read, for a person.
  public var problem: String?

  /// A store's newest action.
  public struct LastAction: Equatable, Sendable {
    public var version: UInt64
    /// When it was reduced, in milliseconds since the Unix epoch.
    public var time: Int64
    /// The action as the log shows it: its path and arguments.
    public var summary: String

    public init(version: UInt64, time: Int64, summary: String) {
      self.version = version
      self.time = time
      self.summary = summary
    }
  }

  public init(
    name: StoreName?, isOpen: Bool, version: UInt64?, clients: Int, bytes: Int, lastAction: LastAction?,
    problem: String? = nil
  ) {
    self.name = name
    self.isOpen = isOpen
    self.version = version
    self.clients = clients
    self.bytes = bytes
    self.lastAction = lastAction
    self.problem = problem
  }

  /// The listing as JSON: `name` is null for the default store; `version`,
  /// `lastAction` and `problem` are left out when there are none.
  public var json: JSONValue {
    var object: JSONObject = [
      "name": name.map { .string($0.text) } ?? .null, "open": .bool(isOpen), "clients": .int(clients),
      "bytes": .int(bytes),
    ]
    if let version { object["version"] = .int(Int(clamping: version)) }
    if let lastAction {
      object["lastAction"] = .object([
        "version": .int(Int(clamping: lastAction.version)), "time": .int(Int(clamping: lastAction.time)),
        "summary": .string(lastAction.summary),
      ])
    }
    if let problem { object["problem"] = .string(problem) }
    return .object(object)
  }

  /// Reads a listing from its JSON.
  public init(json: JSONValue) throws(MessageError) {
    let type = "stores"
    guard case .object(let object) = json else {
      throw MessageError(.invalidMessage, "'stores' needs each store to be an object, got \(json)")
    }
    if case .string(let text)? = object["name"] {
      name = try StoreName(text)
    } else {
      name = nil
    }
    isOpen = try object.optionalBool("open", in: type) ?? false
    version = try object.optionalUInt64("version", in: type)
    clients = try object.optionalInt("clients", in: type) ?? 0
    bytes = try object.optionalInt("bytes", in: type) ?? 0
    problem = try object.optionalString("problem", in: type)
    if case .object(let last)? = object["lastAction"] {
      guard let version = try last.optionalUInt64("version", in: type) else {
        throw MessageError(.invalidMessage, "'stores' needs a 'lastAction' to have a 'version'")
      }
      lastAction = LastAction(
        version: version, time: Int64(try last.int("time", in: type)), summary: try last.string("summary", in: type))
    } else {
      lastAction = nil
    }
  }
}
