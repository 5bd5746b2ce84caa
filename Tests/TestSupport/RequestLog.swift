import Dispatch
import Synchronization

/// Every request a server received, in arrival order, and which of them the
/// client abandoned before the answer; threads can block until the log holds
/// what they wait for.
final class RequestLog: Sendable {
  private struct State {
    var requests: [RecordedRequest] = []
    var abandoned: [Int] = []
    /// Threads blocked in ``wait(timeout:until:)``, woken on every change.
    var waiters: [DispatchSemaphore] = []
  }

  private let state = Mutex(State())

  /// Records a request, numbering it after the ones before.
  func record(_ build: (_ sequence: Int) -> RecordedRequest) -> RecordedRequest {
    let (request, waiters) = state.withLock { state in
      let request = build(state.requests.count + 1)
      state.requests.append(request)
      defer { state.waiters.removeAll() }
      return (request, state.waiters)
    }
    for waiter in waiters { waiter.signal() }
    return request
  }

  /// Notes that the client of request `sequence` went away before its answer.
  func markAbandoned(_ sequence: Int) {
    let waiters = state.withLock { state in
      state.abandoned.append(sequence)
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.signal() }
  }

  /// The requests so far.
  var requests: [RecordedRequest] { state.withLock { $0.requests } }

  /// The requests whose clients went away before their answers, in the order they went.
  var abandoned: [RecordedRequest] {
    state.withLock { state in state.abandoned.map { state.requests[$0 - 1] } }
  }

  /// Blocks until `check` finds what it looks for in (requests, abandoned
  /// requests) and returns it, or `timeout` passes (then `nil`).
  func wait<Found>(
    timeout: Duration, until check: (_ requests: [RecordedRequest], _ abandoned: [RecordedRequest]) -> Found?
  ) -> Found? {
    let deadline = ContinuousClock.now + timeout
    while true {
      let semaphore = DispatchSemaphore(value: 0)
      let found: Found? = state.withLock { state in
        let abandoned = state.abandoned.map { state.requests[$0 - 1] }
        if let found = check(state.requests, abandoned) { return found }
        state.waiters.append(semaphore)
        return nil
      }
      if let found { return found }
      let left = deadline - .now
      let signalled = left > .zero && semaphore.wait(timeout: .now() + left.dispatchInterval) == .success
      if !signalled {
        return state.withLock { state in
          state.waiters.removeAll { $0 === semaphore }
          return check(state.requests, state.abandoned.map { state.requests[$0 - 1] })
        }
      }
    }
  }
}
