import ComposableCore
import TestSupport
import Testing
import Wire

/// The timer worker as a real process, driven over its socket.
@Suite(.ownThreads) struct TimerWorkerTests {
  @Test func timersFireInDeadlineOrderWithTickOne() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    try worker.send([
      .start(id: 1, request: .timer(.after(.milliseconds(600)))),
      .start(id: 2, request: .timer(.after(.milliseconds(200)))),
      .start(id: 3, request: .timer(.after(.milliseconds(400)))),
      .start(id: 4, request: .timer(.after(.zero))),
    ])
    var replies: [(EffectID, EffectReply)] = []
    for _ in 0..<4 { replies.append(try worker.reply()) }
    #expect(replies.map(\.0) == [4, 2, 3, 1])
    #expect(replies.allSatisfy { $0.1 == .timerFired(tick: 1) })
    // One-shot timers are over: nothing more comes.
    #expect(try worker.eventsBeforePong(1).isEmpty)
  }

  @Test func aRepeatingTimerTicksFromOneUntilCancelled() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    let started = ContinuousClock.now
    try worker.send(.start(id: 9, request: .timer(.every(.milliseconds(50)))))
    for tick in 1...5 {
      let (id, reply) = try worker.reply()
      #expect(id == 9)
      #expect(reply == .timerFired(tick: tick))
    }
    // Five ticks of 50 ms take at least 250 ms (no upper bound: the machine is shared).
    #expect(ContinuousClock.now - started >= .milliseconds(245))
    try worker.send(.cancel(id: 9))
    // Ticks written before the worker took the cancel may still arrive…
    let inFlight = try worker.eventsBeforePong(1)
    #expect(inFlight.allSatisfy { if case .reply(9, .timerFired) = $0 { true } else { false } })
    // …but none after it: a timer started now, due after several more
    // ticks would have been, fires first. (The worker fires in deadline
    // order, however late it runs.)
    #expect(try worker.perform(.timer(.after(.milliseconds(300))), id: 10) == .timerFired(tick: 1))
  }

  @Test func aCancelledTimerNeverFires() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    try worker.send([
      .start(id: 1, request: .timer(.after(.milliseconds(200)))),
      .start(id: 2, request: .timer(.after(.milliseconds(250)))),
      .cancel(id: 1),
      .cancel(id: 77),
    ])
    let (id, reply) = try worker.reply()
    #expect(id == 2 && reply == .timerFired(tick: 1))
    #expect(try worker.eventsBeforePong(1).isEmpty)
  }

  @Test func fiveThousandConcurrentTimersAllFireOnce() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    let count = 5_000
    let commands: [WorkerCommand] = (0..<count).map { index in
      .start(id: EffectID(index), request: .timer(.after(.milliseconds(300 + index % 700))))
    }
    try worker.send(commands)
    var fired: [EffectID: Int] = [:]
    for _ in 0..<count {
      let (id, reply) = try worker.reply(timeout: .seconds(30))
      #expect(reply == .timerFired(tick: 1))
      fired[id, default: 0] += 1
    }
    #expect(fired.count == count)
    #expect(fired.values.allSatisfy { $0 == 1 })
    #expect(try worker.eventsBeforePong(1).isEmpty)
  }

  @Test func pingIsAnsweredWhileTimersRun() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    try worker.send(.start(id: 1, request: .timer(.every(.milliseconds(5)))))
    // Ticks keep coming, so the pong must come by a deadline of its own: a
    // generous one, since only a worker that never reads its socket while
    // timers run misses it.
    try worker.send(.ping(id: 42))
    let deadline = ContinuousClock.now + .seconds(60)
    var events: [WorkerEvent] = []
    while true {
      let event = try worker.next()
      if event == .pong(id: 42) { break }
      events.append(event)
      try #require(ContinuousClock.now < deadline, "no pong within 60 s, after \(events.count) ticks")
    }
    #expect(events.allSatisfy { if case .reply(1, .timerFired) = $0 { true } else { false } })
  }

  @Test func invalidAndMisroutedRequestsAreAnsweredNotFatal() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    let zero = try worker.perform(.timer(TimerRequest(milliseconds: 0, repeats: true)), id: 1)
    #expect(zero == .failure(EffectFailure(.invalidRequest, "a repeating timer needs an interval of at least 1 ms")))
    let misrouted = try worker.perform(.storage(.list(namespace: "n")), id: 2)
    #expect(
      misrouted
        == .failure(
          EffectFailure(
            .invalidRequest, "the timer worker does not carry out storage requests; they go to the storage worker")))
    // Still serving.
    #expect(try worker.perform(.timer(.after(.zero)), id: 3) == .timerFired(tick: 1))
  }

  @Test func aRequestStartedTwiceIsRefusedAndTheFirstCancelled() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.timer, in: directory)
    try worker.send(.start(id: 5, request: .timer(.after(.milliseconds(100)))))
    let duplicate = try worker.perform(.timer(.after(.milliseconds(100))), id: 5)
    #expect(duplicate == .failure(EffectFailure(.invalidRequest, "request 5 is already running")))
    // A timer due after the first would have fired comes first.
    #expect(try worker.perform(.timer(.after(.milliseconds(300))), id: 6) == .timerFired(tick: 1))
  }
}
