import ComposableCore
import Testing

@testable import EffectWorkers

/// The schedule is driven with explicit times in nanoseconds: nothing here waits.
@Suite struct TimerScheduleTests {
  let ms: UInt64 = 1_000_000

  @Test func oneShotTimersFireOnceInDeadlineOrder() {
    var schedule = TimerSchedule()
    schedule.schedule(1, TimerRequest(milliseconds: 300, repeats: false), now: 0)
    schedule.schedule(2, TimerRequest(milliseconds: 100, repeats: false), now: 0)
    schedule.schedule(3, TimerRequest(milliseconds: 200, repeats: false), now: 0)
    #expect(schedule.nextDeadline() == 100 * ms)
    #expect(schedule.fireDue(now: 99 * ms).isEmpty)
    #expect(schedule.fireDue(now: 250 * ms) == [.init(id: 2, tick: 1), .init(id: 3, tick: 1)])
    #expect(schedule.fireDue(now: 1_000 * ms) == [.init(id: 1, tick: 1)])
    #expect(schedule.count == 0)
    #expect(schedule.nextDeadline() == nil)
    #expect(schedule.fireDue(now: 10_000 * ms).isEmpty)
  }

  @Test func timersDueTogetherFireInTheOrderTheyStarted() {
    var schedule = TimerSchedule()
    for id in [5, 3, 9, 1] as [EffectID] {
      schedule.schedule(id, TimerRequest(milliseconds: 10, repeats: false), now: 0)
    }
    #expect(schedule.fireDue(now: 10 * ms).map(\.id) == [5, 3, 9, 1])
  }

  @Test func aZeroDelayTimerIsDueAtOnce() {
    var schedule = TimerSchedule()
    schedule.schedule(1, TimerRequest(milliseconds: 0, repeats: false), now: 42)
    #expect(schedule.nextDeadline() == 42)
    #expect(schedule.fireDue(now: 42) == [.init(id: 1, tick: 1)])
  }

  /// The next deadline is the previous deadline plus the interval, however
  /// late the previous firing was handled.
  @Test func repeatingTimersDoNotDrift() {
    var schedule = TimerSchedule()
    schedule.schedule(7, TimerRequest(milliseconds: 100, repeats: true), now: 0)
    #expect(schedule.fireDue(now: 130 * ms) == [.init(id: 7, tick: 1)])
    #expect(schedule.nextDeadline() == 200 * ms)
    #expect(schedule.fireDue(now: 205 * ms) == [.init(id: 7, tick: 2)])
    #expect(schedule.nextDeadline() == 300 * ms)
    #expect(schedule.fireDue(now: 300 * ms) == [.init(id: 7, tick: 3)])
    #expect(schedule.nextDeadline() == 400 * ms)
  }

  /// Far behind (a suspended machine), a repeating timer fires once and
  /// resumes on its grid instead of replaying every missed firing.
  @Test func missedIntervalsAreNotReplayedInABurst() {
    var schedule = TimerSchedule()
    schedule.schedule(7, TimerRequest(milliseconds: 100, repeats: true), now: 0)
    #expect(schedule.fireDue(now: 1_050 * ms) == [.init(id: 7, tick: 1)])
    #expect(schedule.nextDeadline() == 1_100 * ms)
    #expect(schedule.fireDue(now: 1_100 * ms) == [.init(id: 7, tick: 2)])
  }

  @Test func aCancelledTimerNeverFires() {
    var schedule = TimerSchedule()
    schedule.schedule(1, TimerRequest(milliseconds: 10, repeats: true), now: 0)
    schedule.schedule(2, TimerRequest(milliseconds: 20, repeats: false), now: 0)
    let cancelled = (first: schedule.cancel(1), again: schedule.cancel(1), unknown: schedule.cancel(99))
    #expect(cancelled == (true, false, false))
    #expect(schedule.nextDeadline() == 20 * ms)
    #expect(schedule.fireDue(now: 1_000 * ms) == [.init(id: 2, tick: 1)])
  }

  @Test func aTimerScheduledAgainAfterACancelStartsAfresh() {
    var schedule = TimerSchedule()
    schedule.schedule(1, TimerRequest(milliseconds: 10, repeats: false), now: 0)
    schedule.cancel(1)
    schedule.schedule(1, TimerRequest(milliseconds: 50, repeats: false), now: 0)
    // The stale entry at 10 ms is skipped.
    #expect(schedule.fireDue(now: 20 * ms).isEmpty)
    #expect(schedule.fireDue(now: 50 * ms) == [.init(id: 1, tick: 1)])
  }

  /// Debouncing starts and cancels a timer over and over; the stale entries
  /// it leaves behind must not pile up.
  @Test func staleEntriesAreCompacted() {
    var schedule = TimerSchedule()
    for id in 0..<100_000 as Range<EffectID> {
      schedule.schedule(id, TimerRequest(milliseconds: 60_000, repeats: false), now: 0)
      schedule.cancel(id)
    }
    #expect(schedule.count == 0)
    #expect(schedule.heapCount <= 2_050)
    #expect(schedule.nextDeadline() == nil)
  }

  @Test func enormousDelaysSaturateInsteadOfOverflowing() {
    var schedule = TimerSchedule()
    schedule.schedule(1, TimerRequest(milliseconds: .max, repeats: true), now: 1_000)
    #expect(schedule.fireDue(now: UInt64.max / 4).isEmpty)
    #expect(schedule.isRunning(1))
  }

  @Test func invalidRequestsAreRefused() {
    #expect(TimerSchedule.validate(TimerRequest(milliseconds: 0, repeats: false)) == nil)
    #expect(TimerSchedule.validate(TimerRequest(milliseconds: 1, repeats: true)) == nil)
    let zeroInterval = TimerSchedule.validate(TimerRequest(milliseconds: 0, repeats: true))
    #expect(zeroInterval?.kind == .invalidRequest)
    #expect(zeroInterval?.message == "a repeating timer needs an interval of at least 1 ms")
    var negative = TimerRequest(milliseconds: 0, repeats: false)
    negative.milliseconds = -5
    #expect(TimerSchedule.validate(negative)?.message == "a timer needs a delay of 0 ms or more, not -5 ms")
  }
}
