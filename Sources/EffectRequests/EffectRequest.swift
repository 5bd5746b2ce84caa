import JSON

/// Identifies one request in flight, unique for the life of a store.
public typealias EffectID = UInt64

/// An I/O request a reducer asks a worker to carry out.
///
/// Requests are plain data so they can be logged, asserted in tests and sent to
/// a worker process; what the reply means to the feature stays in the daemon.
public enum EffectRequest: Hashable, Sendable, Codable {
  case timer(TimerRequest)
  case http(HTTPRequest)
  case storage(StorageRequest)
  /// A request for a kind the app declares (``WorkerKind``), served by the
  /// app's own worker program: `payload` is the request as that program reads
  /// it, and its answer comes back as ``EffectReply/custom(_:)``. Features
  /// use `Effect.worker(_:_:decoding:then:)`, which encodes a typed request
  /// and decodes the typed answer.
  case custom(kind: WorkerKind, payload: JSONValue)

  /// The kind of worker that carries out this request.
  public var workerKind: WorkerKind {
    switch self {
    case .timer: .timer
    case .http: .network
    case .storage: .storage
    case .custom(let kind, _): kind
    }
  }

  /// Whether `reply` is the last this request gets: a failure ends any
  /// request, and any reply ends one but a repeating timer, which keeps
  /// replying until it is cancelled. The store and the daemon's supervisor
  /// both stop tracking the request on it.
  public func isFinal(_ reply: EffectReply) -> Bool {
    if case .failure = reply { return true }
    if case .timer(let timer) = self, timer.repeats { return false }
    return true
  }
}
