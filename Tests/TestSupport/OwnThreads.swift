import Foundation
import Testing

/// Runs a suite's tests on threads of their own instead of the Swift
/// concurrency pool.
///
/// The pool has as many threads as the machine has cores (two here), and
/// a test that blocks its thread (waiting for a daemon process, polling a
/// file, sleeping between tries) holds one of them for as long as it waits:
/// two such tests and nothing else runs, however idle the processor. Tests
/// that wait this way run their body under this trait on
/// ``BlockingTestExecutor``, whose threads may block without starving the
/// pool, so the suite runs as many tests at once as Swift Testing allows.
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(BlockingTestExecutor.shared) {
      try await function()
    }
  }
}

extension Trait where Self == OwnThreads {
  /// The suite's tests run on threads of their own: see ``OwnThreads``.
  public static var ownThreads: Self { OwnThreads() }
}

/// A task executor whose threads may block: a job waits for an idle thread
/// or gets a new one, never for a blocked one. The threads are kept for
/// the next jobs (a test process runs only so many tests at once).
public final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked Sendable: `jobs`, `head`, `idle` and `wakeups` are read and
  // written only with `condition` locked.
  public static let shared = BlockingTestExecutor()

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var head = 0
  /// Threads waiting for a job, not yet claimed by one.
  private var idle = 0
  /// Claims made on idle threads and not yet taken up by one.
  private var wakeups = 0

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    // Every job has a thread that looks at the queue after it was added:
    // an idle one claimed for it, or a new one.
    let claimed = idle > 0
    if claimed {
      idle -= 1
      wakeups += 1
      condition.signal()
    }
    condition.unlock()
    if !claimed {
      let thread = Thread { [self] in work() }
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  private func work() {
    condition.lock()
    while true {
      if head < jobs.count {
        let job = jobs[head]
        head += 1
        if head == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          head = 0
        }
        condition.unlock()
        job.runSynchronously(on: asUnownedTaskExecutor())
        condition.lock()
        continue
      }
      idle += 1
      while wakeups == 0 { condition.wait() }
      wakeups -= 1
    }
  }
}
