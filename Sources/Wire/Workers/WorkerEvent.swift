import EffectRequests
import JSON

/// A message from an effect worker to the daemon.
public enum WorkerEvent: Equatable, Sendable {
  /// The worker's first message: it serves `kind`, speaks `protocol`, and runs
  /// as `pid`.
  case ready(kind: WorkerKind, pid: Int32, protocol: Int)
  /// A reply to the request `id`. A `failure`, and the first reply of any
  /// request but a repeating timer, ends the request. An app's own worker
  /// answers with `value` (``EffectReply/custom(_:)``) or `failure`; the
  /// built-in workers with `reply`.
  case reply(id: EffectID, reply: EffectReply)
  /// The answer to `ping` `id`.
  case pong(id: Int)

  /// The message types a worker sends.
  public static let types = ["ready", "reply", "pong"]

  /// The event as JSON.
  public func json() throws(WorkerMessageError) -> JSONValue {
    switch self {
    case .ready(let kind, let pid, let version):
      return .object([
        "type": .string("ready"), "kind": .string(kind.rawValue), "pid": .int(Int(pid)), "protocol": .int(version),
      ])
    case .reply(let id, .custom(let value)):
      return .object(["type": .string("reply"), "id": .int(Int(clamping: id)), "value": value])
    case .reply(let id, let reply):
      return .object([
        "type": .string("reply"), "id": .int(Int(clamping: id)), "reply": try workerEncode(reply, as: "reply"),
      ])
    case .pong(let id):
      return .object(["type": .string("pong"), "id": .int(id)])
    }
  }

  /// Reads an event from a frame's payload.
  public init(payload: [UInt8]) throws(WorkerMessageError) {
    let object = try WorkerProtocol.parse(payload)
    guard case .string(let type)? = object["type"] else {
      throw WorkerMessageError("a worker event needs a string 'type', one of: \(Self.types.joined(separator: ", "))")
    }
    switch type {
    case "ready":
      guard let kind = try object.workerKind(in: type) else { throw WorkerMessageError("'ready' needs 'kind'") }
      let pid = try object.workerInt("pid", in: type)
      guard let pid = Int32(exactly: pid), pid > 0 else {
        throw WorkerMessageError("'ready' has an invalid pid \(pid)")
      }
      self = .ready(kind: kind, pid: pid, protocol: try object.workerInt("protocol", in: type))
    case "reply":
      let id = try object.workerID("id", in: type)
      if let value = object["value"] {
        self = .reply(id: id, reply: .custom(value))
      } else if object["failure"] != nil {
        self = .reply(id: id, reply: .failure(try object.workerDecode(EffectFailure.self, "failure", in: type)))
      } else if object["reply"] != nil {
        self = .reply(id: id, reply: try object.workerDecode(EffectReply.self, "reply", in: type))
      } else {
        throw WorkerMessageError("'reply' needs one of 'value' (an app's own kind), 'failure' or 'reply'")
      }
    case "pong":
      self = .pong(id: try object.workerInt("id", in: type))
    default:
      throw WorkerMessageError("unknown worker event '\(type)'; expected one of: \(Self.types.joined(separator: ", "))")
    }
  }
}
