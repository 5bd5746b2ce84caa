import Glibc
import Platform
import Wire

/// How the store loop waits for its next work: commands in its ``Inbox``, or
/// sockets ready in its event poll (the clients', the listener, the effect
/// workers').
///
/// - Busy (commands queued), it does not wait: it looks at the sockets
///   without sleeping and returns.
/// - Idle, it first spins for ``spin``, watching the inbox and, every
///   ``spinCheckInterval``, the sockets; then it sleeps in the event poll,
///   which the inbox's ``Inbox/wake`` wakes. A request that arrives within
///   the spin is taken at once, without the wake-up of a sleeping thread,
///   which costs these machines tens of microseconds (docs/BENCHMARKS.md);
///   the price is up to that much CPU after each piece of work, and none at
///   all when `spin` is zero (`--spin 0`). Each turn of the spin yields the
///   processor, so that the threads and processes the loop waits for (a
///   client on the same core) are not held off.
struct LoopWaiter {
  /// The token the inbox's wake signal is registered with.
  static let wakeToken: UInt64 = 0
  static let spinCheckInterval: Duration = .microseconds(5)

  let spin: Duration

  /// Returns the sockets that are ready, when `inbox` has commands, some
  /// are ready, or `deadline` has passed.
  func wait<Command>(for inbox: Inbox<Command>, on poll: EventPoll, until deadline: ContinuousClock.Instant)
    -> [EventPoll.Event]
  {
    if inbox.hasCommands { return Self.sockets(poll.wait(milliseconds: 0)) }
    var now = ContinuousClock.now
    let spinEnd = min(now + spin, deadline)
    var checkedAt = now - Self.spinCheckInterval
    while now < spinEnd {
      if inbox.hasCommands { return [] }
      if now - checkedAt >= Self.spinCheckInterval {
        checkedAt = now
        let ready = Self.sockets(poll.wait(milliseconds: 0))
        if !ready.isEmpty { return ready }
      }
      sched_yield()
      now = .now
    }
    guard inbox.prepareToSleep() else { return Self.sockets(poll.wait(milliseconds: 0)) }
    let ready = poll.wait(milliseconds: Readiness.milliseconds(until: deadline))
    inbox.awoke()
    return Self.sockets(ready)
  }

  /// The events but the inbox's wake signal's (the inbox says itself
  /// whether commands wait).
  private static func sockets(_ events: [EventPoll.Event]) -> [EventPoll.Event] {
    events.contains { $0.token == wakeToken } ? events.filter { $0.token != wakeToken } : events
  }
}
