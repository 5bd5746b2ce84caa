import ComposableCore
import Dispatch

/// Carries out effects inside the daemon until the effect worker processes
/// exist: timers run on Dispatch and really fire; HTTP and storage requests
/// fail at once with ``EffectFailure/Kind/workerUnavailable``, so features show
/// an error instead of waiting forever.
///
/// `start` and `cancel` are called on the store thread only; replies reach the
/// store through `deliver`, which posts to the store loop.
final class InterimExecutor: EffectExecutor {
  private let deliver: @Sendable (EffectReply, EffectID) -> Void
  private var timers: [EffectID: any DispatchSourceTimer] = [:]
  private let queue = DispatchQueue(label: "storedaemon.timers")

  init(deliver: @escaping @Sendable (EffectReply, EffectID) -> Void) {
    self.deliver = deliver
  }

  func start(_ request: EffectRequest, id: EffectID) {
    timers = timers.filter { !$0.value.isCancelled }
    let deliver = self.deliver
    switch request {
    case .timer(let timer):
      let source = DispatchSource.makeTimerSource(queue: queue)
      let interval = DispatchTimeInterval.milliseconds(max(timer.milliseconds, timer.repeats ? 1 : 0))
      source.schedule(deadline: .now() + interval, repeating: timer.repeats ? interval : .never)
      let repeats = timer.repeats
      let ticks = TickCounter()
      // The handler holds the source until it is cancelled: a one-shot timer
      // cancels itself after firing, a repeating one is cancelled by `cancel`.
      source.setEventHandler {
        deliver(.timerFired(tick: ticks.next()), id)
        if !repeats { source.cancel() }
      }
      timers[id] = source
      source.resume()
    case .http, .storage:
      let kind = request.workerKind
      queue.async {
        deliver(
          .failure(
            EffectFailure(
              .workerUnavailable, "no \(kind.rawValue) worker is running: effect worker processes are not built yet")),
          id)
      }
    }
  }

  func cancel(_ id: EffectID) {
    timers.removeValue(forKey: id)?.cancel()
  }
}

/// Counts a timer's firings; touched only on the timer queue.
private final class TickCounter: @unchecked Sendable {
  // Safe: `next()` runs only in the timer's event handler, on one serial queue.
  private var count = 0
  func next() -> Int {
    count += 1
    return count
  }
}
