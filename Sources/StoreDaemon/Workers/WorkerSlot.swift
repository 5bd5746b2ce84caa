import ComposableCore
import JSON
import Wire

/// Everything the supervisor knows about one worker kind: its process, where it
/// is in its life, and the requests it owes replies to.
final class WorkerSlot {
  enum Phase: Equatable {
    /// Spawned; waiting for its `ready`. Requests queue.
    case starting(since: ContinuousClock.Instant)
    /// Serving. Requests are sent at once.
    case running
    /// Crashed; starts again at the given time. Requests queue.
    case restarting(at: ContinuousClock.Instant)
    /// Crashed too often; requests fail fast until one more try at the given time.
    case degraded(retryAt: ContinuousClock.Instant)
    /// The daemon is shutting down; requests fail.
    case stopped

    /// Every phase's name, for the metrics.
    static let names = ["starting", "running", "restarting", "degraded", "stopped"]

    var name: String {
      switch self {
      case .starting: "starting"
      case .running: "running"
      case .restarting: "restarting"
      case .degraded: "degraded"
      case .stopped: "stopped"
      }
    }
  }

  /// A request the worker owes a reply to, or that waits for the worker.
  struct Pending {
    let request: EffectRequest
    /// The store that made it; nil for the default store.
    let store: StoreName?
    /// When the daemon gives up on the reply; nil for repeating timers, which
    /// the worker's pings watch over instead.
    let deadline: ContinuousClock.Instant?
    /// Whether the `start` was handed to the current process's link (false
    /// while queued or held). If the process ends before replying, a request
    /// handed over fails with `interrupted`, since the worker may have read
    /// and carried it out, and one never handed over with `workerUnavailable`.
    /// Handed over means queued on the link, not yet known to be read: the
    /// daemon errs towards "may have been carried out", never the other way.
    var sent: Bool
  }

  let kind: WorkerKind
  /// The app's program for an app's own kind; nil for a built-in kind.
  let program: AppWorker?
  var phase: Phase = .stopped
  var link: WorkerLink?
  /// What the loop has read from the link, while it reads it.
  var input: WorkerInput?
  var generation = 0
  var history = RestartHistory()
  /// How the last process ended, for status and error messages.
  var lastExit: String?
  var pending: [EffectID: Pending] = [:]
  /// Ids waiting for the worker to become ready, in request order.
  var queue: [EffectID] = []
  var outstandingPing: (id: Int, sentAt: ContinuousClock.Instant)?
  /// The pings its processes answered in time, counted over restarts.
  var pingsAnswered = 0
  var nextPingAt = ContinuousClock.now

  init(kind: WorkerKind, program: AppWorker? = nil) {
    self.kind = kind
    self.program = program
  }

  /// The slot as `tcactl status` shows it.
  var status: JSONValue {
    var object: JSONObject = [
      "kind": .string(kind.rawValue),
      "state": .string(phase.name),
      "restarts": .int(history.total),
      "inFlight": .int(pending.count - queue.count),
      "queued": .int(queue.count),
    ]
    if let link {
      object["pid"] = .int(Int(link.pid))
      object["unwrittenBytes"] = .int(link.unwrittenBytes)
    }
    if let lastExit { object["lastExit"] = .string(lastExit) }
    return .object(object)
  }
}
