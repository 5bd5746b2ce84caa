import Glibc
import Platform
import Wire

/// How the store loop waits for its next work: commands in its ``Inbox``, or
/// input on the sockets it reads itself (the effect workers').
///
/// - Busy (commands queued), it does not wait, and looks at the sockets only
///   every ``busyCheckInterval``: no system call per pass, and no worker
///   starved by a steady stream of commands.
/// - Idle, it first spins for ``spin``, watching the inbox and, every
///   ``spinCheckInterval``, the sockets; then it sleeps in `poll`. A request
///   that arrives within the spin is taken at once, without the wake-up of a
///   sleeping thread, which costs these machines tens of microseconds
///   (docs/BENCHMARKS.md); the price is up to that much CPU after each piece
///   of work, and none at all when `spin` is zero (`--spin 0`). Each turn of
///   the spin yields the processor, so that the threads the loop waits for
///   (a connection's reader, a client on the same core) are not held off.
struct LoopWaiter {
  static let busyCheckInterval: Duration = .microseconds(100)
  static let spinCheckInterval: Duration = .microseconds(5)

  let spin: Duration
  private var socketsCheckedAt = ContinuousClock.now

  init(spin: Duration) {
    self.spin = spin
  }

  /// Returns when `inbox` has commands, one of `sockets` is readable (those
  /// returned), or `deadline` has passed.
  mutating func wait<Command>(
    for inbox: Inbox<Command>, until deadline: ContinuousClock.Instant, alsoReading sockets: [Int32]
  ) -> [Int32] {
    var now = ContinuousClock.now
    if inbox.hasCommands { return check(sockets, every: Self.busyCheckInterval, now: now) }
    let spinEnd = min(now + spin, deadline)
    while now < spinEnd {
      if inbox.hasCommands { return [] }
      let ready = check(sockets, every: Self.spinCheckInterval, now: now)
      if !ready.isEmpty { return ready }
      sched_yield()
      now = .now
    }
    socketsCheckedAt = now
    return inbox.sleep(until: deadline, alsoReading: sockets)
  }

  /// The readable ones of `sockets`, if they were last looked at `interval`
  /// or longer ago; none otherwise.
  private mutating func check(_ sockets: [Int32], every interval: Duration, now: ContinuousClock.Instant) -> [Int32] {
    guard !sockets.isEmpty, now - socketsCheckedAt >= interval else { return [] }
    socketsCheckedAt = now
    return Readiness.readable(sockets, milliseconds: 0)
  }
}
