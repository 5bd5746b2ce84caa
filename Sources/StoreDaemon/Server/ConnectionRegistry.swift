import Dispatch
import Synchronization

/// The client connections the daemon holds open, from `accept` until both
/// of a connection's threads have ended: what `--max-clients` counts, and
/// what a clean stop says goodbye to and waits for.
final class ConnectionRegistry: Sendable {
  private struct State {
    var open: [Int: Connection] = [:]
    /// Set by ``close()``: no connection is added any more.
    var isClosed = false
  }

  private let state = Mutex(State())
  /// Signalled when the last connection goes after ``close()``.
  private let emptied = DispatchSemaphore(value: 0)

  /// How many connections are open.
  var count: Int { state.withLock { $0.open.count } }

  /// Adds a connection; false once ``close()`` was called (the daemon is
  /// stopping), when the caller must say goodbye and close it itself.
  func add(_ connection: Connection) -> Bool {
    state.withLock { state in
      guard !state.isClosed else { return false }
      state.open[connection.id] = connection
      return true
    }
  }

  /// Forgets a connection whose threads have both ended.
  func remove(_ id: Int) {
    let isLast = state.withLock { state in
      state.open[id] = nil
      return state.isClosed && state.open.isEmpty
    }
    if isLast { emptied.signal() }
  }

  /// Takes no more connections; returns those still open.
  func close() -> [Connection] {
    let (open, isEmpty) = state.withLock { state in
      state.isClosed = true
      return (Array(state.open.values), state.open.isEmpty)
    }
    if isEmpty { emptied.signal() }
    return open
  }

  /// Waits, after ``close()``, until every connection has ended or
  /// `deadline` has passed; returns whether they all ended.
  func waitUntilEmpty(deadline: DispatchTime) -> Bool {
    emptied.wait(timeout: deadline) == .success
  }
}
