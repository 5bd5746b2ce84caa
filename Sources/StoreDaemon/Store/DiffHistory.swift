import ComposableCore
import Wire

/// The most recent changes, kept so that a subscriber resuming from a version
/// it already has gets the diffs it missed instead of a whole snapshot (the
/// etcd watch model). Bounded: the oldest change is dropped when full.
struct DiffHistory {
  struct Change {
    let version: UInt64
    let action: JSONValue
    let summary: String
    let patch: [PatchOperation]
  }

  let capacity: Int
  private var changes: [Change] = []
  private var start = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  mutating func append(_ change: Change) {
    if changes.count < capacity {
      changes.append(change)
    } else {
      changes[start] = change
      start = (start + 1) % capacity
    }
  }

  /// The changes after `version` up to `newest`, if every one of them is still
  /// held and they follow each other without a gap; `nil` otherwise.
  func changes(after version: UInt64, upTo newest: UInt64) -> [Change]? {
    if version == newest { return [] }
    guard version < newest, let oldest = oldestVersion, version + 1 >= oldest else { return nil }
    let skip = version + 1 - oldest
    guard skip < UInt64(changes.count) else { return nil }
    let result = (Int(skip)..<changes.count).map { changes[(start + $0) % changes.count] }
    for (offset, change) in result.enumerated() where change.version != version + 1 + UInt64(offset) {
      return nil
    }
    return result.last?.version == newest ? result : nil
  }

  /// Forgets every change, so that no subscriber resumes across a gap.
  mutating func removeAll() {
    changes.removeAll()
    start = 0
  }

  private var oldestVersion: UInt64? {
    changes.isEmpty ? nil : changes[start].version
  }
}
