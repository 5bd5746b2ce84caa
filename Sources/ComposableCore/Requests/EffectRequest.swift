/// An I/O request a reducer asks a worker to carry out.
///
/// Requests are plain data so they can be logged, asserted in tests and sent to
/// a worker process; what the reply means to the feature stays in the daemon.
public enum EffectRequest: Hashable, Sendable, Codable {
  case timer(TimerRequest)
  case http(HTTPRequest)
  case storage(StorageRequest)

  /// The kind of worker that carries out this request.
  public var workerKind: WorkerKind {
    switch self {
    case .timer: .timer
    case .http: .network
    case .storage: .storage
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

/// The kinds of effect worker; one process runs per kind.
public enum WorkerKind: String, Hashable, Sendable, Codable, CaseIterable {
  case timer
  case network
  case storage
}
