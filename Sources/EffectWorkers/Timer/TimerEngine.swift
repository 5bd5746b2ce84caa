import EffectRequests
import Platform

/// The timer worker: every timer lives in one ``TimerSchedule`` on the
/// command loop's thread, which sleeps in `poll` until the earliest deadline
/// or the next command. No thread per timer, so thousands stay cheap.
final class TimerEngine: WorkerEngine {
  private let channel: WorkerChannel
  private var schedule = TimerSchedule()

  init(channel: WorkerChannel) {
    self.channel = channel
  }

  func start(_ id: EffectID, _ request: EffectRequest) {
    guard case .timer(let timer) = request else {
      channel.reply(id, .failure(request.wrongKind(for: .timer)))
      return
    }
    if schedule.cancel(id) {
      channel.log.warning("request \(id) was started twice; the first is cancelled")
      channel.reply(id, .failure(EffectFailure(.invalidRequest, "request \(id) is already running")))
      return
    }
    if let failure = TimerSchedule.validate(timer) {
      channel.reply(id, .failure(failure))
      return
    }
    schedule.schedule(id, timer, now: MonotonicClock.now())
  }

  func cancel(_ id: EffectID) {
    schedule.cancel(id)
  }

  func nextWake() -> MonotonicClock.Instant? {
    schedule.nextDeadline()
  }

  func wake(at now: MonotonicClock.Instant) {
    for firing in schedule.fireDue(now: now) {
      channel.reply(firing.id, .timerFired(tick: firing.tick))
    }
  }
}
