import Dispatch
import Platform
import Synchronization

/// A thread that calls `tick` once per interval until stopped: the
/// ``SyncPolicy/everySecond`` syncer.
///
/// A plain thread waiting on a semaphore with a timeout, rather than a
/// dispatch timer, so that stopping is immediate (a signal) and ``stop()``
/// can wait for a tick in progress to finish before the writer closes its
/// file.
final class BackgroundSync: Sendable {
  private let stopped = Atomic<Bool>(false)
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts the thread. `tick` returns `false` to end it (its writer is gone).
  init(interval: Duration, tick: @escaping @Sendable () -> Bool) throws(ThreadStartError) {
    let (seconds, attoseconds) = interval.components
    let nanoseconds = max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    try DetachedThread.start(name: "journal-sync") { [self] in
      while !stopped.load(ordering: .acquiring) {
        _ = wake.wait(timeout: .now() + .nanoseconds(nanoseconds))
        if stopped.load(ordering: .acquiring) || !tick() { break }
      }
      finished.signal()
    }
  }

  /// Stops the thread and waits until it has finished its last tick. Only
  /// the first call waits; later calls return at once.
  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    wake.signal()
    finished.wait()
  }

  /// Asks the thread to stop without waiting (from a deinit, which may run on
  /// the thread itself).
  func requestStop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    wake.signal()
  }
}
