import ComposableCore
import JSON
import Wire

/// The most recent changes, kept so that a subscriber resuming from a version
/// it already has gets the diffs it missed instead of a whole snapshot (the
/// etcd watch model). Bounded in count and in bytes: the oldest changes are
/// dropped first, so a burst of large changes cannot grow the daemon.
struct DiffHistory {
  struct Change {
    let version: UInt64
    let action: JSONValue
    let summary: String
    let patch: [PatchOperation]
    /// The change's size as encoded, for the byte budget.
    let byteCount: Int
  }

  let capacity: Int
  let byteBudget: Int
  /// Oldest first, from `head`; the slots before `head` are dropped changes
  /// awaiting compaction.
  private var changes: [Change] = []
  private var head = 0
  private var byteCount = 0

  init(capacity: Int, byteBudget: Int = 64 << 20) {
    self.capacity = max(1, capacity)
    self.byteBudget = byteBudget
  }

  private var count: Int { changes.count - head }

  mutating func append(_ change: Change) {
    changes.append(change)
    byteCount += change.byteCount
    while count > capacity || (byteCount > byteBudget && count > 1) {
      byteCount -= changes[head].byteCount
      head += 1
    }
    if head > 64 && head * 2 > changes.count {
      changes.removeFirst(head)
      head = 0
    }
  }

  /// The changes after `version` up to `newest`, if every one of them is still
  /// held and they follow each other without a gap; `nil` otherwise.
  func changes(after version: UInt64, upTo newest: UInt64) -> [Change]? {
    if version == newest { return [] }
    guard version < newest, count > 0 else { return nil }
    let oldest = changes[head].version
    guard version + 1 >= oldest else { return nil }
    let skip = version + 1 - oldest
    guard skip < UInt64(count) else { return nil }
    let result = Array(changes[(head + Int(skip))...])
    for (offset, change) in result.enumerated() where change.version != version + 1 + UInt64(offset) {
      return nil
    }
    return result.last?.version == newest ? result : nil
  }

  /// Forgets the changes after `version` (they were never made durable).
  mutating func removeChanges(after version: UInt64) {
    while count > 0, let last = changes.last, last.version > version {
      byteCount -= last.byteCount
      changes.removeLast()
    }
  }

  /// Forgets every change, so that no subscriber resumes across a gap.
  mutating func removeAll() {
    changes.removeAll()
    head = 0
    byteCount = 0
  }
}
