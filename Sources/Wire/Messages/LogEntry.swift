import EffectRequests
import JSON

/// One record of the action log as the daemon sends it (`log` and `record`
/// messages): the version an action produced, when and by whom, the action,
/// and what it changed (docs/PROTOCOL.md, "The action log").
public struct LogEntry: Equatable, Sendable {
  /// The state version the action produced.
  public var version: UInt64
  /// When it was reduced, in milliseconds since the Unix epoch.
  public var time: Int64
  /// Who sent it: `{"client": name, "connection": n, "origin": n}` for a
  /// client's action, `{"effect": true, "origin": n}` for one an effect sent
  /// (`origin` is the client action it followed from, numbered per run of the
  /// daemon), `{"recovery": true, "origin": n}` for the daemon's own after a
  /// crash, `{"build": "NAME VERSION", "migration": {"from": 1, "to": 2}}` for
  /// the migration of the state to a newer build's schema.
  public var origin: JSONValue
  /// The action's JSON.
  public var action: JSONValue
  /// What the reducer drew from the world while reducing it (dates, UUIDs,
  /// random numbers), as the journal keeps it; `nil` if nothing.
  public var inputs: JSONValue?
  /// The action as a command line, e.g. `cart.addItem 3`.
  public var summary: String
  /// The JSON Patch from the state before to the state after, from the root.
  public var patch: JSONValue

  public init(
    version: UInt64, time: Int64, origin: JSONValue, action: JSONValue, inputs: JSONValue? = nil, summary: String,
    patch: JSONValue
  ) {
    self.version = version
    self.inputs = inputs
    self.time = time
    self.origin = origin
    self.action = action
    self.summary = summary
    self.patch = patch
  }

  /// The entry as JSON.
  public var json: JSONValue {
    var object: JSONObject = [
      "version": .int(Int(clamping: version)), "time": .int(Int(clamping: time)), "origin": origin, "action": action,
      "summary": .string(summary), "patch": patch,
    ]
    if let inputs { object["inputs"] = inputs }
    return .object(object)
  }

  /// Reads an entry from its JSON.
  public init(json: JSONValue) throws(MessageError) {
    guard case .object(let object) = json else {
      throw MessageError(.invalidMessage, "a log entry must be an object, got \(json)")
    }
    let type = "log entry"
    guard let version = try object.optionalUInt64("version", in: type) else {
      throw MessageError(.invalidMessage, "a log entry needs 'version' to be an integer")
    }
    self.version = version
    time = Int64(try object.int("time", in: type))
    origin = object["origin"] ?? .null
    action = object["action"] ?? .null
    inputs = object["inputs"]
    summary = try object.string("summary", in: type)
    patch = object["patch"] ?? .array([])
  }
}
