import EffectRequests
import Platform
import Wire

/// What one kind of worker does with the daemon's requests.
///
/// ``WorkerLoop`` calls every method on its own thread, one at a time, so an
/// engine may keep state there without locks; anything an engine hands to
/// other threads it must protect itself. Replies go out through the
/// ``WorkerChannel`` the engine was made with.
package protocol WorkerEngine: AnyObject {
  /// Starts request `id`. Requests of another kind, and invalid requests, are
  /// answered with a failure of kind `invalidRequest`.
  func start(_ id: EffectID, _ request: EffectRequest)
  /// Starts request `id` for the store `store` (nil: the daemon's default
  /// store). Only an engine whose work belongs to a store (storage: its
  /// documents) tells stores apart; the others serve every store alike.
  func start(_ id: EffectID, _ request: EffectRequest, store: StoreName?)
  /// Cancels request `id`: nothing more is replied for it. Unknown ids are ignored.
  func cancel(_ id: EffectID)
  /// When, on the monotonic clock, the loop must call ``wake(at:)`` even if no
  /// command arrives; nil when nothing is scheduled.
  func nextWake() -> MonotonicClock.Instant?
  /// Called after every wait of the loop, with the current time.
  func wake(at now: MonotonicClock.Instant)
}

extension WorkerEngine {
  package func start(_ id: EffectID, _ request: EffectRequest, store: StoreName?) { start(id, request) }
  package func nextWake() -> MonotonicClock.Instant? { nil }
  package func wake(at now: MonotonicClock.Instant) {}
}

extension EffectRequest {
  /// The failure for a request sent to the wrong kind of worker.
  package func wrongKind(for kind: WorkerKind) -> EffectFailure {
    EffectFailure(
      .invalidRequest,
      "the \(kind.rawValue) worker does not carry out \(workerKind.rawValue) requests; they go to the \(workerKind.rawValue) worker"
    )
  }
}
