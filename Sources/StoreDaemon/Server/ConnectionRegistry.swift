import Dispatch
import Synchronization

/// The client connections the daemon holds open, from `accept` until both
/// of a connection's threads have ended: what `--max-clients` counts, and
/// what a clean stop says goodbye to and waits for.
///
/// Connections still waiting for their `hello` hold at most
/// ``handshakeShare(of:)`` of the slots: past it, or when every slot is
/// taken, a new connection closes the one that has waited longest for its
/// `hello` (as OpenSSH's `MaxStartups` drops unauthenticated connections),
/// so connections that never speak cannot keep out clients that do.
final class ConnectionRegistry: Sendable {
  /// What ``admit(_:maximum:)`` decided.
  enum Admission {
    /// Admitted; `evicted` is a connection still in its handshake that was
    /// closed to make room, which the caller tells why.
    case admitted(evicted: Connection?)
    /// Every slot is held by a client that has said `hello`.
    case full
    /// The daemon is stopping.
    case closed
  }

  /// The most connections that may wait for their `hello` at once: half of
  /// `maximum`, at least one.
  static func handshakeShare(of maximum: Int) -> Int { max(1, maximum / 2) }

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

  /// Adds a connection if a slot is free, or can be freed by closing the
  /// connection that has waited longest for its `hello`; at most `maximum`
  /// are open. Unless admitted, the caller tells the client and closes it.
  func admit(_ connection: Connection, maximum: Int) -> Admission {
    state.withLock { state in
      guard !state.isClosed else { return .closed }
      let handshaking = state.open.values.filter { !$0.isGreeted }
      var evicted: Connection?
      if state.open.count >= maximum || handshaking.count >= Self.handshakeShare(of: maximum) {
        // Ids grow with each accept: the smallest has waited longest.
        guard let oldest = handshaking.min(by: { $0.id < $1.id }) else { return .full }
        state.open[oldest.id] = nil
        evicted = oldest
      }
      state.open[connection.id] = connection
      return .admitted(evicted: evicted)
    }
  }

  /// Forgets a connection whose threads have both ended (or that was
  /// evicted).
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
