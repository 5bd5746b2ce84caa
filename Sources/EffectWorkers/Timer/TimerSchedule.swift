import EffectRequests
import Platform

/// The running timers and when each fires next: a pure value, driven with
/// explicit times, so it is tested without waiting.
///
/// Cancelling is O(1): the timer leaves the table and its heap entry stays
/// behind, *stale*, until it reaches the top and is skipped (lazy deletion).
/// When stale entries outnumber live ones the heap is rebuilt, so a stream of
/// start-then-cancel (a debounce) never grows it without bound.
///
/// A repeating timer's next deadline is its previous deadline plus the
/// interval, not "now" plus the interval, so it does not drift. If the worker
/// fell behind by more than an interval (the machine was suspended or
/// overloaded), the missed firings are not replayed in a burst: the timer
/// fires once and resumes on its grid. `tick` counts the firings sent.
package struct TimerSchedule {
  /// One firing due now.
  package struct Firing: Equatable {
    package var id: EffectID
    package var tick: Int
  }

  private struct Timer {
    var interval: UInt64
    var repeats: Bool
    var tick: Int
    var serial: UInt64
  }

  private var timers: [EffectID: Timer] = [:]
  private var heap = DeadlineHeap()
  private var nextSerial: UInt64 = 0

  package init() {}

  /// The number of running timers.
  var count: Int { timers.count }
  /// The number of heap entries, stale ones included (for tests).
  var heapCount: Int { heap.count }

  func isRunning(_ id: EffectID) -> Bool { timers[id] != nil }

  /// Checks a request before it is scheduled.
  static func validate(_ request: TimerRequest) -> EffectFailure? {
    if request.milliseconds < 0 {
      return EffectFailure(.invalidRequest, "a timer needs a delay of 0 ms or more, not \(request.milliseconds) ms")
    }
    if request.repeats && request.milliseconds < 1 {
      return EffectFailure(.invalidRequest, "a repeating timer needs an interval of at least 1 ms")
    }
    return nil
  }

  /// Schedules timer `id` to fire `request.milliseconds` after `now`; a timer
  /// already running under `id` is replaced. The request must be valid
  /// (``validate(_:)``).
  package mutating func schedule(_ id: EffectID, _ request: TimerRequest, now: MonotonicClock.Instant) {
    let interval = MonotonicClock.nanoseconds(milliseconds: request.milliseconds)
    let serial = takeSerial()
    timers[id] = Timer(interval: interval, repeats: request.repeats, tick: 0, serial: serial)
    heap.insert(.init(deadline: MonotonicClock.adding(interval, to: now), serial: serial, id: id))
    compactIfMostlyStale()
  }

  /// Stops timer `id`. Returns whether it was running.
  @discardableResult
  package mutating func cancel(_ id: EffectID) -> Bool {
    guard timers.removeValue(forKey: id) != nil else { return false }
    compactIfMostlyStale()
    return true
  }

  /// The earliest deadline of a running timer; drops stale entries on the way.
  package mutating func nextDeadline() -> MonotonicClock.Instant? {
    while let first = heap.first {
      if isCurrent(first) { return first.deadline }
      heap.removeFirst()
    }
    return nil
  }

  /// Every firing due at `now`, earliest deadline first. One-shot timers end
  /// with their firing; repeating ones are rescheduled on their grid.
  package mutating func fireDue(now: MonotonicClock.Instant) -> [Firing] {
    var firings: [Firing] = []
    var rescheduled: [DeadlineHeap.Entry] = []
    while let first = heap.first, first.deadline <= now {
      heap.removeFirst()
      guard isCurrent(first), var timer = timers[first.id] else { continue }
      timer.tick += 1
      firings.append(Firing(id: first.id, tick: timer.tick))
      guard timer.repeats else {
        timers[first.id] = nil
        continue
      }
      var next = MonotonicClock.adding(timer.interval, to: first.deadline)
      if next <= now {
        // Behind by more than an interval: skip to the first grid point after now.
        let missed = (now - first.deadline) / timer.interval
        next = MonotonicClock.adding(timer.interval, to: first.deadline + missed * timer.interval)
      }
      timer.serial = takeSerial()
      timers[first.id] = timer
      // Inserted after the loop, so a timer fires at most once per call.
      rescheduled.append(.init(deadline: next, serial: timer.serial, id: first.id))
    }
    for entry in rescheduled { heap.insert(entry) }
    return firings
  }

  private func isCurrent(_ entry: DeadlineHeap.Entry) -> Bool {
    timers[entry.id]?.serial == entry.serial
  }

  private mutating func takeSerial() -> UInt64 {
    defer { nextSerial += 1 }
    return nextSerial
  }

  private mutating func compactIfMostlyStale() {
    let stale = heap.count - timers.count
    guard stale > 1024 && stale > timers.count else { return }
    let timers = self.timers
    heap.filter { timers[$0.id]?.serial == $0.serial }
  }
}
