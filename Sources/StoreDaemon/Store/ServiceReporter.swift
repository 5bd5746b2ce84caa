import ComposableCore

/// What the store loop tells systemd (docs/OPERATIONS.md): `READY=1` once the
/// workers have come up, a one-line `STATUS=` when it changes, and
/// `WATCHDOG=1` pings. The pings come from the loop's own thread, between
/// batches, so a reducer that stalls the loop stops them and systemd's
/// watchdog restarts the daemon. Confined to the store loop's thread.
final class ServiceReporter {
  /// The most often a `STATUS=` is sent, unless an alert changes.
  static let statusInterval: Duration = .seconds(1)
  /// `READY=1` is sent at the latest this long after start, even if a worker
  /// is still starting: the daemon serves, and the status says which are not up.
  static let readyDeadline: Duration = .seconds(15)

  let notifier: ServiceNotifier
  private let startedAt: ContinuousClock.Instant
  private(set) var readySent = false
  private var nextWatchdogPing = ContinuousClock.now
  /// The last status sent, the alerts it showed, and when.
  private var lastStatus: (text: String, alerts: [String], sentAt: ContinuousClock.Instant)?

  init(notifier: ServiceNotifier, startedAt: ContinuousClock.Instant) {
    self.notifier = notifier
    self.startedAt = startedAt
  }

  /// The latest time the loop must wake to keep the watchdog fed.
  var nextWakeup: ContinuousClock.Instant {
    notifier.watchdogInterval == nil ? .now + .seconds(3600) : nextWatchdogPing
  }

  /// Pings the watchdog when due. Called between commands too, so that a
  /// long but progressing run of commands (thousands queued, each syncing)
  /// keeps it fed, while a reducer that never returns stops it.
  func pingWatchdogIfDue(now: ContinuousClock.Instant? = nil) {
    guard let interval = notifier.watchdogInterval else { return }
    let now = now ?? .now
    guard now >= nextWatchdogPing else { return }
    notifier.notify(["WATCHDOG=1"])
    nextWatchdogPing = now + interval
  }

  /// Pings the watchdog when due, says `READY=1` once (when `isSettled`, the
  /// workers have come up, or at the deadline), and refreshes the status: at
  /// most once a second, except when the `alerts` change, which is said at
  /// once. `status` is the daemon's state in one line.
  func report(
    now: ContinuousClock.Instant = .now, isSettled: () -> Bool, alerts: () -> [String], status: () -> String
  ) {
    guard notifier.isEnabled else { return }
    pingWatchdogIfDue(now: now)
    if !readySent {
      guard isSettled() || now - startedAt >= Self.readyDeadline else { return }
      readySent = true
      let status = status()
      notifier.notify(["READY=1", ServiceNotifier.status(status)])
      lastStatus = (status, alerts(), now)
      Log.info("ready: \(status)")
      return
    }
    let alerts = alerts()
    if let last = lastStatus, last.alerts == alerts, now - last.sentAt < Self.statusInterval { return }
    let status = status()
    if let last = lastStatus, last.text == status {
      lastStatus?.sentAt = now
      return
    }
    notifier.notify([ServiceNotifier.status(status)])
    lastStatus = (status, alerts, now)
  }
}
