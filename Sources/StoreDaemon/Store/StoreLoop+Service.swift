import ComposableCore
import Glibc

/// What the store loop tells systemd (docs/OPERATIONS.md): `READY=1` once the
/// workers have come up, a one-line `STATUS=` when it changes, and
/// `WATCHDOG=1` pings. The pings come from this loop's own thread, between
/// batches, so a reducer that stalls the loop stops them and systemd's
/// watchdog restarts the daemon. Runs on the store loop's thread only.
extension StoreLoop {
  /// The most often a `STATUS=` is sent, unless an alert changes.
  static let statusInterval: Duration = .seconds(1)
  /// `READY=1` is sent at the latest this long after start, even if a worker
  /// is still starting: the daemon serves, and the status says which are not up.
  static let readyDeadline: Duration = .seconds(15)

  /// The state of the service bookkeeping, kept by the loop.
  struct ServiceState {
    var readySent = false
    var nextWatchdogPing = ContinuousClock.now
    /// The last status sent, the alerts it showed, and when.
    var lastStatus: (text: String, alerts: [String], sentAt: ContinuousClock.Instant)?
  }

  /// The latest time the loop must wake to keep the watchdog fed.
  var nextServiceWakeup: ContinuousClock.Instant {
    notifier.watchdogInterval == nil ? .now + .seconds(3600) : service.nextWatchdogPing
  }

  /// Pings the watchdog when due. Called between commands too, so that a
  /// long but progressing run of commands (thousands queued, each syncing)
  /// keeps it fed, while a reducer that never returns stops it.
  func pingWatchdogIfDue(now: ContinuousClock.Instant? = nil) {
    guard let interval = notifier.watchdogInterval else { return }
    let now = now ?? .now
    guard now >= service.nextWatchdogPing else { return }
    notifier.notify(["WATCHDOG=1"])
    service.nextWatchdogPing = now + interval
  }

  /// Pings the watchdog when due, says `READY=1` once, and refreshes the
  /// status: at most once a second, except when a worker becomes degraded
  /// or writes are refused, which is said at once.
  func reportToServiceManager(now: ContinuousClock.Instant = .now) {
    guard notifier.isEnabled else { return }
    pingWatchdogIfDue(now: now)
    if !service.readySent {
      guard supervisor.allSettled || now - startedAt >= Self.readyDeadline else { return }
      service.readySent = true
      let status = statusLine
      notifier.notify(["READY=1", ServiceNotifier.status(status)])
      service.lastStatus = (status, alerts, now)
      Log.info("ready: \(status)")
      return
    }
    let alerts = self.alerts
    if let last = service.lastStatus, last.alerts == alerts, now - last.sentAt < Self.statusInterval { return }
    let status = statusLine
    if let last = service.lastStatus, last.text == status {
      service.lastStatus?.sentAt = now
      return
    }
    notifier.notify([ServiceNotifier.status(status)])
    service.lastStatus = (status, alerts, now)
  }

  /// What must reach systemd's status at once: the degraded workers, and
  /// whether writes are refused.
  var alerts: [String] {
    supervisor.phases.filter { $0.phase == "degraded" }.map(\.kind.rawValue) + (writesRefused == nil ? [] : ["writes refused"])
  }

  /// The daemon's state in one line, e.g. `version 42; 3 clients, 1 subscriber;
  /// workers: timer running, network running, storage running`.
  var statusLine: String {
    let subscribers = clients.values.filter(\.isSubscribed).count
    var parts = [
      "\(clients.count) client\(clients.count == 1 ? "" : "s"), \(subscribers) subscriber\(subscribers == 1 ? "" : "s")",
      "workers: " + supervisor.phases.map { "\($0.kind.rawValue) \($0.phase)" }.joined(separator: ", "),
    ]
    let degraded = supervisor.phases.filter { $0.phase == "degraded" }.map(\.kind.rawValue)
    if !degraded.isEmpty { parts.append("DEGRADED: " + degraded.joined(separator: ", ")) }
    if writesRefused != nil { parts.append("WRITES REFUSED after a journal failure (see the log)") }
    return "version \(store.version); " + parts.joined(separator: "; ")
  }
}
