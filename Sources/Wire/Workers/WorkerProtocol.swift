import EffectRequests
import JSON

/// The protocol between storedaemon and its effect workers
/// (docs/PROTOCOL.md, "Worker protocol").
///
/// A worker is started by the daemon with one end of a socketpair as file
/// descriptor 3; both ends speak the same frames as clients do, with JSON
/// payloads whose `type` names the message. The worker speaks first, with
/// ``WorkerEvent/ready(kind:pid:protocol:)``; from then on the daemon sends
/// ``WorkerCommand``s and the worker answers with ``WorkerEvent``s, in any
/// order. The built-in kinds' requests and replies travel as their Swift
/// `Codable` form, like actions do on client connections; an app's own
/// kind's as the JSON the app and its worker agree on.
public enum WorkerProtocol {
  /// The version a worker announces in `ready`; the daemon refuses any other.
  public static let version = 1

  /// The largest frame either side sends: an HTTP response body (base64 in
  /// JSON) up to the network worker's response limit must fit.
  public static let maximumFrame: UInt32 = 64 << 20

  /// The file descriptor a worker finds its end of the socketpair on.
  public static let socketDescriptor: Int32 = 3

  /// The environment variable in which the daemon gives each worker its own
  /// pid. A worker that finds it asks the kernel to kill it when that process
  /// dies (`PR_SET_PDEATHSIG`), so that not even a stopped or hung worker
  /// outlives a daemon killed with SIGKILL (docs/WORKERS.md, "Startup").
  public static let daemonPIDVariable = "STOREDAEMON_PID"

  /// The environment variable naming the kind an app's own worker program is
  /// started for, which it names in its `ready`.
  public static let kindVariable = "STOREDAEMON_WORKER_KIND"

  /// The environment variable naming a directory of an app's own worker's
  /// own, `STATE_DIR/workers/KIND`, which the daemon makes at start.
  public static let directoryVariable = "STOREDAEMON_WORKER_DIRECTORY"

  /// What the network worker's program adds to the name of `effectworker`.
  public static let networkProgramSuffix = "-network"

  /// The program that serves the built-in `kind`: `effectworker` for timers and storage,
  /// `effectworker-network` for HTTP. Only the network worker links
  /// FoundationNetworking (libcurl and its TLS libraries); the others load
  /// the standard library and FoundationEssentials alone, and so restart in
  /// a few milliseconds.
  public static func programName(for kind: WorkerKind) -> String {
    kind == .network ? "effectworker" + networkProgramSuffix : "effectworker"
  }

  /// The executable to start for the built-in `kind`, given the path of `effectworker`:
  /// that path itself, or for the network kind the same path with
  /// ``networkProgramSuffix`` appended (`/usr/bin/effectworker` →
  /// `/usr/bin/effectworker-network`). Both are installed side by side.
  public static func executable(for kind: WorkerKind, effectworker: String) -> String {
    kind == .network ? effectworker + networkProgramSuffix : effectworker
  }

  /// A frame carrying `command`.
  public static func frame(_ command: WorkerCommand) throws(WorkerMessageError) -> [UInt8] {
    try frame(command.json())
  }

  /// A frame carrying `event`.
  public static func frame(_ event: WorkerEvent) throws(WorkerMessageError) -> [UInt8] {
    try frame(event.json())
  }

  private static func frame(_ json: JSONValue) throws(WorkerMessageError) -> [UInt8] {
    let payload = CanonicalJSON.encode(json)
    do {
      return try FrameEncoder.frame(payload, maximum: maximumFrame)
    } catch {
      throw WorkerMessageError("a worker message of \(payload.count) bytes exceeds the \(maximumFrame)-byte maximum")
    }
  }

  /// Parses a payload's JSON, strictly.
  static func parse(_ payload: [UInt8]) throws(WorkerMessageError) -> JSONObject {
    let json: JSONValue
    do {
      json = try JSONParser.parse(payload)
    } catch {
      throw WorkerMessageError("a worker message is not valid JSON: \(error)")
    }
    guard case .object(let object) = json else {
      throw WorkerMessageError("a worker message must be a JSON object with a 'type', got \(CanonicalJSON.text(json))")
    }
    return object
  }
}

/// A worker message that cannot be encoded or decoded. Between the daemon and
/// its own workers this is a bug, never user input: the daemon restarts a
/// worker that sends one.
public struct WorkerMessageError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

extension JSONObject {
  func workerField(_ key: String, in type: String) throws(WorkerMessageError) -> JSONValue {
    guard let value = self[key] else { throw WorkerMessageError("'\(type)' needs '\(key)'") }
    return value
  }

  func workerInt(_ key: String, in type: String) throws(WorkerMessageError) -> Int {
    let field = try workerField(key, in: type)
    guard case .int(let value) = field else {
      throw WorkerMessageError("'\(type)' needs '\(key)' to be an integer, got \(CanonicalJSON.text(field))")
    }
    return value
  }

  func workerID(_ key: String, in type: String) throws(WorkerMessageError) -> EffectID {
    let value = try workerInt(key, in: type)
    guard value >= 0 else { throw WorkerMessageError("'\(type)' needs '\(key)' to be non-negative, got \(value)") }
    return EffectID(value)
  }

  /// The message's `kind`, nil when it has none.
  func workerKind(in type: String) throws(WorkerMessageError) -> WorkerKind? {
    guard let value = self["kind"] else { return nil }
    guard case .string(let name) = value else {
      throw WorkerMessageError("'\(type)' needs 'kind' to be a string, got \(CanonicalJSON.text(value))")
    }
    do throws(WorkerKindError) {
      try WorkerKind.validate(name)
    } catch {
      throw WorkerMessageError("'\(type)': \(error)")
    }
    return WorkerKind(stringLiteral: name)
  }

  /// The message's `store`, nil when it has none (the default store).
  func workerStore(in type: String) throws(WorkerMessageError) -> StoreName? {
    guard let value = self["store"] else { return nil }
    guard case .string(let text) = value else {
      throw WorkerMessageError("'\(type)' needs 'store' to be a string, got \(CanonicalJSON.text(value))")
    }
    do throws(MessageError) {
      return try StoreName(text)
    } catch {
      throw WorkerMessageError("'\(type)': \(error.message)")
    }
  }

  func workerDecode<T: Decodable>(_ type: T.Type, _ key: String, in message: String) throws(WorkerMessageError) -> T {
    let value = try workerField(key, in: message)
    do {
      return try CanonicalJSON.decode(type, from: value)
    } catch {
      throw WorkerMessageError("'\(message)': '\(key)' is not a \(T.self): \(error)")
    }
  }
}

func workerEncode(_ value: some Encodable, as name: String) throws(WorkerMessageError) -> JSONValue {
  do {
    return try CanonicalJSON.value(of: value)
  } catch {
    throw WorkerMessageError("the \(name) does not encode as JSON: \(error)")
  }
}
