import ComposableCore
import JSON
import Wire

/// The sends with `wait` whose effects are still running, by origin, and the
/// changes each has led to so far, for its `settled` answer. A value: the
/// open batch keeps a copy to go back to should the journal refuse it.
struct SettledWaits {
  struct Wait {
    let connectionID: Int
    let requestID: Int
    var changes: [JSONValue] = []
  }

  /// The most changes a `settled` answer lists; an action whose effects keep
  /// changing the state (a repeating timer) would otherwise grow it forever.
  static let maximumChanges = 1000

  private var waits: [Origin: Wait] = [:]

  mutating func register(_ origin: Origin, connectionID: Int, requestID: Int) {
    waits[origin] = Wait(connectionID: connectionID, requestID: requestID)
  }

  mutating func remove(_ origin: Origin) {
    waits[origin] = nil
  }

  /// Notes a change that followed from the send of `origin`, if it waits.
  mutating func note(_ change: DiffHistory.Change, origin: Origin) {
    guard !waits.isEmpty, let count = waits[origin]?.changes.count, count < Self.maximumChanges else { return }
    waits[origin]?.changes.append(
      .object([
        "version": .int(Int(clamping: change.version)), "action": .string(change.summary),
        "patch": JSONPatch.json(change.patch),
      ]))
  }

  /// Whether no send waits for its effects.
  var isEmpty: Bool { waits.isEmpty }

  /// Whether `isSettled` says any wait's origin is settled.
  func hasSettled(_ isSettled: (Origin) -> Bool) -> Bool {
    waits.keys.contains(where: isSettled)
  }

  /// Removes and returns the waits whose origins `isSettled` says are settled.
  mutating func takeSettled(_ isSettled: (Origin) -> Bool) -> [Wait] {
    guard !waits.isEmpty else { return [] }
    var settled: [Wait] = []
    for (origin, wait) in waits where isSettled(origin) {
      waits[origin] = nil
      settled.append(wait)
    }
    return settled
  }

  func waits(forConnection id: Int) -> Bool {
    waits.values.contains { $0.connectionID == id }
  }

  mutating func removeAll(forConnection id: Int) {
    waits = waits.filter { $0.value.connectionID != id }
  }
}
