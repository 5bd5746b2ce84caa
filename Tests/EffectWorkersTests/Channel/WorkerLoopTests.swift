import Testing

@testable import EffectWorkers

@Suite struct WorkerLoopTests {
  @Test func thePollTimeoutNeverWakesBeforeTheDeadline() {
    #expect(WorkerLoop.pollTimeout(until: nil, now: 5) == -1)
    #expect(WorkerLoop.pollTimeout(until: 5, now: 5) == 0)
    #expect(WorkerLoop.pollTimeout(until: 4, now: 5) == 0)
    #expect(WorkerLoop.pollTimeout(until: 1_000_001, now: 1) == 1)
    #expect(WorkerLoop.pollTimeout(until: 1_000_002, now: 1) == 2)
    #expect(WorkerLoop.pollTimeout(until: 250_000_000, now: 0) == 250)
    #expect(WorkerLoop.pollTimeout(until: .max, now: 0) == .max)
  }
}
