import Testing

@testable import EffectWorkers

@Suite struct DeadlineHeapTests {
  @Test func entriesComeOutByDeadlineThenSerial() {
    var generator = SystemRandomNumberGenerator()
    var heap = DeadlineHeap()
    var inserted: [DeadlineHeap.Entry] = []
    for serial in 0..<2_000 {
      // Few distinct deadlines, so ties are common.
      let entry = DeadlineHeap.Entry(
        deadline: UInt64.random(in: 0..<50, using: &generator), serial: UInt64(serial), id: UInt64(serial))
      inserted.append(entry)
      heap.insert(entry)
    }
    var removed: [DeadlineHeap.Entry] = []
    while let entry = heap.removeFirst() { removed.append(entry) }
    #expect(removed == inserted.sorted { $0.precedes($1) })
    #expect(heap.isEmpty)
  }

  @Test func insertionsBetweenRemovalsKeepTheOrder() {
    var heap = DeadlineHeap()
    heap.insert(.init(deadline: 30, serial: 0, id: 1))
    heap.insert(.init(deadline: 10, serial: 1, id: 2))
    #expect(heap.removeFirst()?.id == 2)
    heap.insert(.init(deadline: 20, serial: 2, id: 3))
    heap.insert(.init(deadline: 5, serial: 3, id: 4))
    #expect(heap.first?.id == 4)
    #expect([heap.removeFirst(), heap.removeFirst(), heap.removeFirst()].map { $0?.id } == [4, 3, 1])
    #expect(heap.removeFirst() == nil)
  }

  @Test func filteringKeepsAValidHeap() {
    var heap = DeadlineHeap()
    for value in (0..<1_000).shuffled() {
      heap.insert(.init(deadline: UInt64(value), serial: UInt64(value), id: UInt64(value)))
    }
    heap.filter { $0.id % 3 == 0 }
    var removed: [UInt64] = []
    while let entry = heap.removeFirst() { removed.append(entry.id) }
    #expect(removed == Array(stride(from: 0, to: 1_000, by: 3)))
  }
}
