import ComposableCore
import FoundationEssentials
import Synchronization
import Testing

@Suite struct StoreTests {
  @Test func sentActionsRunFirstInFirstOutAfterTheCurrentOne() {
    let reducer = Reduce<[String], String> { state, action in
      state.append(action)
      switch action {
      case "A": return .merge(.send("B"), .send("C"))
      case "B": return .send("D")
      default: return .none
      }
    }
    let store = Store(initialState: [], reducer: reducer, executor: RecordingExecutor())
    let version = store.send("A")
    #expect(store.state == ["A", "B", "C", "D"])
    #expect(version == 1)
    #expect(store.version == 4)
  }

  /// A reducer written with a body: the store builds the body once, and
  /// runs it for every action.
  struct Counting: Reducer {
    static let bodiesBuilt = Mutex(0)
    var body: some Reducer<Int, Int> {
      let _ = Self.bodiesBuilt.withLock { $0 += 1 }
      Reduce { state, action in
        state += action
        return .none
      }
    }
  }

  @Test func theStoreBuildsABodyOnceAndRunsItForEveryAction() {
    let store = Store(initialState: 0, reducer: Counting(), executor: RecordingExecutor())
    let built = Counting.bodiesBuilt.withLock { $0 }
    for value in 1...3 { store.send(value) }
    #expect(store.state == 6)
    #expect(Counting.bodiesBuilt.withLock { $0 } == built)
    // Called directly, a reducer still runs its body.
    var state = 0
    _ = Counting().reduce(into: &state, action: 5)
    #expect(state == 5)
  }

  @Test func aHundredThousandChainedSendsUseConstantStack() {
    let reducer = Reduce<Int, Int> { state, remaining in
      state += 1
      return remaining > 0 ? .send(remaining - 1) : .none
    }
    let store = Store(initialState: 0, reducer: reducer, executor: RecordingExecutor())
    store.send(100_000)
    #expect(store.state == 100_001)
    #expect(store.version == 100_001)
  }

  @Test func aHundredThousandConcatenatedSendsUseConstantStack() {
    let reducer = Reduce<Int, Int> { state, action in
      state += 1
      return action == 0 ? .concatenate((1...100_000).map { .send($0) }) : .none
    }
    let store = Store(initialState: 0, reducer: reducer, executor: RecordingExecutor())
    store.send(0)
    #expect(store.state == 100_001)
  }

  @Test func requestsGoToTheExecutorAndRepliesComeBackAsActions() {
    let executor = RecordingExecutor()
    let reducer = Reduce<[String], String> { state, action in
      state.append(action)
      guard action == "fetch" else { return .none }
      return .http(.get("https://example.test/x")) { result in
        switch result {
        case .success(let response): "status \(response.status)"
        case .failure(let failure): "failed \(failure.kind)"
        }
      }
    }
    let store = Store(initialState: [], reducer: reducer, executor: executor)
    store.send("fetch")
    #expect(executor.started.map(\.request) == [.http(.get("https://example.test/x"))])
    #expect(store.inFlight.count == 1)
    store.deliver(.http(HTTPResponse(status: 204)), to: executor.started[0].id)
    #expect(store.state == ["fetch", "status 204"])
    #expect(store.inFlight.isEmpty)
    // A second reply to a finished request is dropped.
    store.deliver(.http(HTTPResponse(status: 204)), to: executor.started[0].id)
    #expect(store.state == ["fetch", "status 204"])
  }

  @Test func repeatingTimerRepliesUntilCancelled() {
    enum ID { case tick }
    let executor = RecordingExecutor()
    let reducer = Reduce<[String], String> { state, action in
      state.append(action)
      switch action {
      case "start": return .timer(every: .seconds(1)) { "tick \($0)" }.cancellable(id: ID.tick)
      case "stop": return .cancel(id: ID.tick)
      default: return .none
      }
    }
    let store = Store(initialState: [], reducer: reducer, executor: executor)
    store.send("start")
    let id = executor.started[0].id
    store.deliver(.timerFired(tick: 1), to: id)
    store.deliver(.timerFired(tick: 2), to: id)
    store.send("stop")
    #expect(executor.cancelled == [id])
    store.deliver(.timerFired(tick: 3), to: id)
    #expect(store.state == ["start", "tick 1", "tick 2", "stop"])
    #expect(store.inFlight.isEmpty)
  }

  @Test func aFailureEndsARepeatingTimer() {
    let executor = RecordingExecutor()
    let reducer = Reduce<[String], String> { state, action in
      state.append(action)
      return action == "start" ? .timer(every: .seconds(1)) { "tick \($0)" } : .none
    }
    let store = Store(initialState: [], reducer: reducer, executor: executor)
    store.send("start")
    store.deliver(.failure(EffectFailure(.workerUnavailable, "timer worker restarted")), to: executor.started[0].id)
    #expect(store.inFlight.isEmpty)
  }

  @Test func didReduceSeesEveryVersionInOrder() {
    let reducer = Reduce<Int, Int> { state, action in
      state += action
      return action > 1 ? .send(action - 1) : .none
    }
    let store = Store(initialState: 0, reducer: reducer, executor: RecordingExecutor())
    var seen: [(UInt64, Int, Int)] = []
    store.didReduce = { version, action, state in seen.append((version, action, state)) }
    store.send(3)
    #expect(seen.map(\.0) == [1, 2, 3])
    #expect(seen.map(\.1) == [3, 2, 1])
    #expect(seen.map(\.2) == [3, 5, 6])
  }

  /// An action sent while another is being reduced (from `didReduce`, which
  /// runs before that action's effects start) is queued, reduced next, and
  /// its send returns the version it will produce.
  @Test func aSendDuringAReduceIsQueuedBehindTheChainUnderWay() {
    let reducer = Reduce<[String], String> { state, action in
      state.append(action)
      return action == "A" ? .send("B") : .none
    }
    let store = Store(initialState: [], reducer: reducer, executor: RecordingExecutor())
    var promised: UInt64?
    store.didReduce = { [unowned store] version, action, _ in
      if action == "A" { promised = store.send("X") }
    }
    var versions: [String: UInt64] = [:]
    let publish = store.didReduce!
    store.didReduce = { version, action, state in
      versions[action] = version
      publish(version, action, state)
    }
    #expect(store.send("A") == 1)
    #expect(store.state == ["A", "X", "B"])
    #expect(promised == 2)
    #expect(versions == ["A": 1, "X": 2, "B": 3])
    // The queue is empty again: the next send is reduced at once.
    #expect(store.send("C") == 4)
    #expect(store.state == ["A", "X", "B", "C"])
  }
}

@Suite struct HTTPRequestTests {
  @Test(arguments: [
    ("https://gifs.test/v1/gifs/search?api_key=secret&q=cat", "https://gifs.test/v1/gifs/search?…"),
    ("https://user:pass@store.test/products", "https://store.test/products"),
    ("http://numbers.test/42", "http://numbers.test/42"),
  ])
  func displayURLHidesSecrets(_ url: String, _ shown: String) {
    #expect(HTTPRequest.get(url).displayURL == shown)
  }

  @Test func failureMessagesDoNotContainTheQueryString() {
    let executor = RecordingExecutor()
    let reducer = Reduce<[String], String> { state, action in
      state.append(action)
      guard action == "go" else { return .none }
      return .http(.get("https://gifs.test/search?api_key=secret")) { result in
        if case .failure(let failure) = result { return failure.message }
        return "ok"
      }
    }
    let store = Store(initialState: [], reducer: reducer, executor: executor)
    store.send("go")
    store.deliver(.http(HTTPResponse(status: 403)), to: executor.started[0].id)
    #expect(store.state.last == "GET https://gifs.test/search?… answered 403")
  }
}

@Suite struct HTTPBodyTests {
  struct Stamped: Encodable {
    var at: Date
    var name: String
  }

  @Test func jsonBodiesSortKeysAndWriteDatesAsISO8601() throws {
    let request = try HTTPRequest.json(
      "POST", "https://x.test/y", body: Stamped(at: Date(timeIntervalSince1970: 0), name: "n"))
    #expect(
      request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"at":"1970-01-01T00:00:00.000Z","name":"n"}"#)
    #expect(request.headers.contains(HTTPHeader("Content-Type", "application/json")))
  }
}

@Suite struct OriginTests {
  @Test func anOriginSettlesWhenEverythingThatFollowedFromItIsDone() {
    let executor = RecordingExecutor()
    let reducer = Reduce<[String], String> { state, action in
      state.append(action)
      switch action {
      case "start": return .merge(.timer(after: .seconds(1), send: "fired"), .send("next"))
      case "next": return .http(.get("https://x.test")) { _ in "answered" }
      default: return .none
      }
    }
    let store = Store(initialState: [], reducer: reducer, executor: executor)
    var origins: [String: Origin] = [:]
    store.didReduce = { [unowned store] _, action, _ in origins[action] = store.reducingOrigin }
    store.send("start", origin: 7)
    store.send("unrelated", origin: 8)
    #expect(origins == ["start": 7, "next": 7, "unrelated": 8])
    #expect(!store.isSettled(origin: 7))
    #expect(store.isSettled(origin: 8))
    store.deliver(.timerFired(tick: 1), to: executor.started[0].id)
    #expect(origins["fired"] == 7)
    #expect(!store.isSettled(origin: 7))
    store.deliver(.http(HTTPResponse(status: 200)), to: executor.started[1].id)
    #expect(origins["answered"] == 7)
    #expect(store.isSettled(origin: 7))
  }
}
