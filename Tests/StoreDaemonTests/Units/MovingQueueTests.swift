import Testing

@testable import StoreDaemon

/// The queue the connection server hands events to the loop in: first in,
/// first out, across growth and reuse of its room, and every element let
/// go exactly once.
@Suite struct MovingQueueTests {
  /// Counts its instances alive, to show none is copied or leaked.
  private final class Tracked {
    // Safe: only everyElementIsLetGoOnce makes them, on one task.
    nonisolated(unsafe) static var alive = 0
    let value: Int
    init(_ value: Int) {
      self.value = value
      Self.alive += 1
    }
    deinit { Self.alive -= 1 }
  }

  @Test func elementsComeOutInTheOrderTheyWentIn() {
    let queue = MovingQueue<Int>(capacity: 2)
    var expected: [Int] = []
    var taken: [Int] = []
    var next = 0
    // Appends and takes interleaved so that the room is reused from the
    // front and grown, in turns.
    for round in 1...40 {
      for _ in 0..<(round % 7 + 1) {
        queue.append(next)
        expected.append(next)
        next += 1
      }
      for _ in 0..<(round % 5) {
        guard let element = queue.popFirst() else { break }
        taken.append(element)
      }
    }
    while let element = queue.popFirst() { taken.append(element) }
    #expect(taken == expected)
    #expect(queue.isEmpty && queue.count == 0)
    #expect(queue.popFirst() == nil)
  }

  @Test func everyElementIsLetGoOnce() {
    do {
      let queue = MovingQueue<Tracked>(capacity: 1)
      for value in 0..<50 { queue.append(Tracked(value)) }
      #expect(queue.popFirst()?.value == 0)
      #expect(Tracked.alive == 49)
      queue.removeAll()
      #expect(Tracked.alive == 0)
      for value in 0..<10 { queue.append(Tracked(value)) }
      #expect(queue.popFirst()?.value == 0)
    }
    #expect(Tracked.alive == 0, "the queue's deinit lets go of what it held")
  }
}
