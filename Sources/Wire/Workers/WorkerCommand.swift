import EffectRequests
import JSON

/// A message from the daemon to an effect worker.
public enum WorkerCommand: Equatable, Sendable {
  /// Carry out `request` for the store `store` (nil: the daemon's default
  /// store); answer with one or more `reply` events for `id`. A request of
  /// an app's own kind travels as its payload, with its `kind`.
  case start(id: EffectID, request: EffectRequest, store: StoreName? = nil)
  /// Stop the request `id`: abort its I/O and send nothing more for it. A
  /// request the worker does not know (it already finished) is ignored.
  case cancel(id: EffectID)
  /// Answer with `pong` carrying the same `id`; the daemon restarts a worker
  /// that stops answering.
  case ping(id: Int)

  /// The message types the daemon sends to a worker.
  public static let types = ["start", "cancel", "ping"]

  /// The command as JSON.
  public func json() throws(WorkerMessageError) -> JSONValue {
    switch self {
    case .start(let id, let request, let store):
      var object: JSONObject = ["type": .string("start"), "id": .int(Int(clamping: id))]
      if case .custom(let kind, let payload) = request {
        // An app's own worker reads its request as the feature wrote it.
        object["kind"] = .string(kind.rawValue)
        object["request"] = payload
      } else {
        object["request"] = try workerEncode(request, as: "request")
      }
      if let store { object["store"] = .string(store.text) }
      return .object(object)
    case .cancel(let id):
      return .object(["type": .string("cancel"), "id": .int(Int(clamping: id))])
    case .ping(let id):
      return .object(["type": .string("ping"), "id": .int(id)])
    }
  }

  /// Reads a command from a frame's payload.
  public init(payload: [UInt8]) throws(WorkerMessageError) {
    let object = try WorkerProtocol.parse(payload)
    guard case .string(let type)? = object["type"] else {
      throw WorkerMessageError("a worker command needs a string 'type', one of: \(Self.types.joined(separator: ", "))")
    }
    switch type {
    case "start":
      let id = try object.workerID("id", in: type)
      let store = try object.workerStore(in: type)
      if let kind = try object.workerKind(in: type), !kind.isBuiltIn {
        self = .start(
          id: id, request: .custom(kind: kind, payload: try object.workerField("request", in: type)), store: store)
      } else {
        self = .start(id: id, request: try object.workerDecode(EffectRequest.self, "request", in: type), store: store)
      }
    case "cancel":
      self = .cancel(id: try object.workerID("id", in: type))
    case "ping":
      self = .ping(id: try object.workerInt("id", in: type))
    default:
      throw WorkerMessageError(
        "unknown worker command '\(type)'; expected one of: \(Self.types.joined(separator: ", "))")
    }
  }
}
