/// When a crashed worker is restarted, and when the daemon stops trying: the
/// restart intensity of an OTP supervisor.
///
/// The first crash in a quiet period is restarted at once (a worker serves
/// again within milliseconds); crashes that follow quickly wait longer and
/// longer. More than ``maximumRestarts`` within ``period`` marks the kind
/// degraded: its requests fail fast with a clear error instead of piling onto
/// a worker that cannot stay up, and one more start is tried after
/// ``degradedRetry``.
struct RestartPolicy: Sendable {
  /// Restarts allowed within ``period`` before the kind is degraded.
  var maximumRestarts = 5
  var period: Duration = .seconds(30)
  /// The wait before the second restart within ``period``; it doubles with
  /// each further one, up to ``maximumBackoff``.
  var initialBackoff: Duration = .milliseconds(100)
  var maximumBackoff: Duration = .seconds(5)
  /// How long a degraded kind waits before one more try.
  var degradedRetry: Duration = .seconds(60)

  static let standard = RestartPolicy()

  /// What to do about a crash.
  enum Decision: Equatable {
    /// Start the worker again after this wait.
    case restart(after: Duration)
    /// Too many crashes: fail requests fast, and try again after this wait.
    case degrade(retryAfter: Duration)
  }
}

/// The crashes of one worker kind, for its ``RestartPolicy``.
struct RestartHistory {
  /// When the crashes within the policy's period happened, oldest first.
  private(set) var recent: [ContinuousClock.Instant] = []
  /// Every restart since the daemon started, for `tcactl status`.
  private(set) var total = 0

  /// Records a crash at `now` and decides what follows.
  mutating func crashed(at now: ContinuousClock.Instant, policy: RestartPolicy) -> RestartPolicy.Decision {
    recent.removeAll { now - $0 > policy.period }
    recent.append(now)
    if recent.count > policy.maximumRestarts {
      recent.removeAll()
      return .degrade(retryAfter: policy.degradedRetry)
    }
    total += 1
    guard recent.count > 1 else { return .restart(after: .zero) }
    var backoff = policy.initialBackoff
    for _ in 2..<recent.count where backoff < policy.maximumBackoff { backoff *= 2 }
    return .restart(after: min(backoff, policy.maximumBackoff))
  }
}
