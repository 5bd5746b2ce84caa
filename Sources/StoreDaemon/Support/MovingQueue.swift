/// A first-in, first-out queue whose elements are moved in and out, never
/// copied: what the connection server queues for the loop (a client's
/// request, with its strings and arrays) is handed over without the retain
/// and release that copying it out of an array would cost.
///
/// Its elements are kept in one allocation, from `head` on; taking one
/// moves it out and advances `head`, and the room before `head` is reused
/// once the queue is empty or has to grow.
final class MovingQueue<Element> {
  private var storage: UnsafeMutablePointer<Element>
  private var capacity: Int
  private var head = 0
  private(set) var count = 0

  init(capacity: Int = 16) {
    self.capacity = Swift.max(capacity, 1)
    storage = .allocate(capacity: self.capacity)
  }

  deinit {
    (storage + head).deinitialize(count: count)
    storage.deallocate()
  }

  var isEmpty: Bool { count == 0 }

  /// Adds `element` after the others.
  func append(_ element: consuming Element) {
    if head + count == capacity { makeRoom() }
    (storage + head + count).initialize(to: element)
    count += 1
  }

  /// Takes the first element out, or nil if there is none.
  func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = (storage + head).move()
    count -= 1
    head = count == 0 ? 0 : head + 1
    return element
  }

  /// Removes every element.
  func removeAll() {
    (storage + head).deinitialize(count: count)
    head = 0
    count = 0
  }

  /// Room for one more at the end: the elements are moved to the front if
  /// that frees at least half (and frees any), and otherwise to an
  /// allocation twice as large.
  private func makeRoom() {
    if head > 0 && head >= capacity / 2 {
      storage.moveInitialize(from: storage + head, count: count)
    } else {
      let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: storage + head, count: count)
      storage.deallocate()
      storage = larger
      capacity *= 2
    }
    head = 0
  }
}
