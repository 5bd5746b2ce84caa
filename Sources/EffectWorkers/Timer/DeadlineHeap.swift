import EffectRequests
import Platform

/// A binary min-heap of timer deadlines: O(log n) insert and removal of the
/// earliest, O(1) peek, so thousands of concurrent timers stay cheap.
///
/// Entries that tie on the deadline come out in the order of their `serial`
/// (the order they were scheduled in).
struct DeadlineHeap {
  struct Entry: Equatable {
    var deadline: MonotonicClock.Instant
    /// Increases with every entry scheduled; breaks ties and tells a current
    /// entry from a stale one (see ``TimerSchedule``).
    var serial: UInt64
    var id: EffectID

    func precedes(_ other: Entry) -> Bool {
      (deadline, serial) < (other.deadline, other.serial)
    }
  }

  private(set) var entries: [Entry] = []

  var count: Int { entries.count }
  var isEmpty: Bool { entries.isEmpty }
  /// The earliest entry.
  var first: Entry? { entries.first }

  mutating func insert(_ entry: Entry) {
    entries.append(entry)
    siftUp(from: entries.count - 1)
  }

  /// Removes and returns the earliest entry.
  @discardableResult
  mutating func removeFirst() -> Entry? {
    guard !entries.isEmpty else { return nil }
    entries.swapAt(0, entries.count - 1)
    let first = entries.removeLast()
    if !entries.isEmpty { siftDown(from: 0) }
    return first
  }

  /// Keeps only the entries `isIncluded` accepts, in O(n).
  mutating func filter(_ isIncluded: (Entry) -> Bool) {
    entries.removeAll { !isIncluded($0) }
    // Floyd's heap construction: sift down every parent, last first.
    for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
  }

  private mutating func siftUp(from index: Int) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].precedes(entries[parent]) else { return }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(from index: Int) {
    var parent = index
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < entries.count && entries[left].precedes(entries[smallest]) { smallest = left }
      if right < entries.count && entries[right].precedes(entries[smallest]) { smallest = right }
      guard smallest != parent else { return }
      entries.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
