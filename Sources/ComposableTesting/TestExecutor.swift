import ComposableCore

/// The in-memory executor behind ``TestStore``: it records nothing the store
/// does not already track, and keeps timers on a virtual clock.
final class TestExecutor: EffectExecutor {
  private struct ScheduledTimer {
    var deadline: Duration
    var tick: Int
    let interval: Duration
    let repeats: Bool
  }

  /// The virtual time.
  var now: Duration = .zero
  private var timers: [EffectID: ScheduledTimer] = [:]

  func start(_ request: EffectRequest, id: EffectID) {
    guard case .timer(let timer) = request else { return }
    timers[id] = ScheduledTimer(
      deadline: now + timer.duration, tick: 1, interval: timer.duration, repeats: timer.repeats)
  }

  func cancel(_ id: EffectID) {
    timers[id] = nil
  }

  /// The earliest timer due at or before `limit` (ties by start order): moves
  /// the clock to its deadline and reschedules it if it repeats.
  func nextTimer(dueBy limit: Duration) -> (EffectID, tick: Int)? {
    guard
      let (id, timer) = timers.filter({ $0.value.deadline <= limit })
        .min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) })
    else { return nil }
    now = max(now, timer.deadline)
    if timer.repeats {
      timers[id] = ScheduledTimer(
        deadline: timer.deadline + timer.interval, tick: timer.tick + 1, interval: timer.interval, repeats: true)
    } else {
      timers[id] = nil
    }
    return (id, timer.tick)
  }
}
