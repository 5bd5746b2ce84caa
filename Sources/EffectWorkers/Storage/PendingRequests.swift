import EffectRequests
import Synchronization

/// The storage requests started and neither answered nor cancelled, shared
/// by the command loop (start, cancel) and the work thread (run, answer).
///
/// Each start gets a serial, so a request whose id was cancelled, or started
/// again, is told apart from the one the work thread holds.
final class PendingRequests: Sendable {
  private let table = Mutex<(serials: [EffectID: UInt64], next: UInt64)>(([:], 0))

  /// Registers request `id` and returns its serial, or nil when `id` is
  /// already pending, in which case the earlier request is cancelled too.
  func add(_ id: EffectID) -> UInt64? {
    table.withLock { table in
      if table.serials.removeValue(forKey: id) != nil { return nil }
      table.next += 1
      table.serials[id] = table.next
      return table.next
    }
  }

  /// Whether request `id` started as `serial` is still wanted.
  func isPending(_ id: EffectID, serial: UInt64) -> Bool {
    table.withLock { $0.serials[id] == serial }
  }

  /// Ends request `id` started as `serial` and, if it was still wanted, runs
  /// `answer` before anyone can cancel it, so a request's answer never
  /// follows its cancel.
  func finish(_ id: EffectID, serial: UInt64, answer: () -> Void) {
    table.withLock { table in
      guard table.serials[id] == serial else { return }
      table.serials[id] = nil
      answer()
    }
  }

  /// Forgets request `id`; nothing will be answered for it.
  func cancel(_ id: EffectID) {
    table.withLock { _ = $0.serials.removeValue(forKey: id) }
  }
}
