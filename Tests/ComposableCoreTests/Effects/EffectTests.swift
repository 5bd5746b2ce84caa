import ComposableCore
import ComposableTesting
import Testing

/// A feature whose actions exercise each effect operator.
struct Effects: Reducer {
  struct State: Equatable, Sendable { var log: [String] = [] }
  enum Action: Equatable, Sendable {
    case merge, concatenate
    case fired(String)
    case cancelLater
    case startSearch(String)
    case stop
    case typed(Int)
    case debounced(Int)
    case cancelConcatenation, startWatched, startTicking
    case typedWatched(Int)
    case failed(EffectFailure)
  }
  enum CancelID { case search, later, debounce }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .merge:
        return .merge(
          .timer(after: .seconds(2), send: .fired("slow")), .timer(after: .seconds(1), send: .fired("fast")))
      case .concatenate:
        return .concatenate(
          .timer(after: .seconds(2), send: .fired("first")), .send(.fired("second")),
          .timer(after: .seconds(1), send: .fired("third")))
      case .cancelConcatenation:
        return .concatenate(.timer(after: .seconds(1), send: .fired("one")), .send(.fired("two")))
          .cancellable(id: CancelID.later)
      case .fired(let name):
        state.log.append(name)
        return .none
      case .cancelLater:
        return .cancel(id: CancelID.later)
      case .startSearch(let query):
        return .timer(after: .seconds(1), send: .fired(query)).cancellable(id: CancelID.search, cancelInFlight: true)
      case .stop:
        return .cancel(id: CancelID.search)
      case .typed(let value):
        return .debounce(id: CancelID.debounce, for: .seconds(1), send: .debounced(value))
      case .debounced(let value):
        state.log.append("debounced \(value)")
        return .none
      case .startWatched:
        return .timer(after: .seconds(1), send: .fired("watched"), failed: Action.failed)
      case .startTicking:
        return .timer(every: .seconds(1), send: { .fired("tick \($0)") }, failed: Action.failed)
          .cancellable(id: CancelID.later)
      case .typedWatched(let value):
        return .debounce(id: CancelID.debounce, for: .seconds(1), send: .debounced(value), failed: Action.failed)
      case .failed(let failure):
        state.log.append("failed: \(failure.message)")
        return .none
      }
    }
  }
}

@Suite struct EffectTests {
  @Test func mergeRunsEffectsSideBySide() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.merge)
    #expect(store.inFlight.count == 2)
    store.advance(by: .seconds(2))
    store.receive(.fired("fast")) { $0.log = ["fast"] }
    store.receive(.fired("slow")) { $0.log = ["fast", "slow"] }
  }

  @Test func concatenateRunsEffectsOneAfterAnother() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.concatenate)
    #expect(store.inFlight.count == 1)
    store.advance(by: .seconds(2))
    store.receive(.fired("first")) { $0.log = ["first"] }
    store.receive(.fired("second")) { $0.log = ["first", "second"] }
    #expect(store.inFlight.count == 1)
    store.advance(by: .seconds(1))
    store.receive(.fired("third")) { $0.log = ["first", "second", "third"] }
  }

  @Test func cancelledConcatenationDoesNotContinue() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.cancelConcatenation)
    store.send(.cancelLater)
    #expect(store.inFlight.isEmpty)
    store.advance(by: .seconds(5))
  }

  @Test func cancelInFlightKeepsOnlyTheLatest() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.startSearch("a"))
    store.advance(by: .milliseconds(500))
    store.send(.startSearch("ab"))
    #expect(store.inFlight.count == 1)
    store.advance(by: .seconds(1))
    store.receive(.fired("ab")) { $0.log = ["ab"] }
  }

  @Test func cancelByIDStopsTheEffect() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.startSearch("a"))
    store.send(.stop)
    #expect(store.inFlight.isEmpty)
    store.advance(by: .seconds(2))
  }

  @Test func debounceDeliversOnlyTheLastOfABurst() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.typed(1))
    store.advance(by: .milliseconds(500))
    store.send(.typed(2))
    store.advance(by: .milliseconds(500))
    store.send(.typed(3))
    store.advance(by: .milliseconds(999))
    store.advance(by: .milliseconds(1))
    store.receive(.debounced(3)) { $0.log = ["debounced 3"] }
  }

  @Test func aWatchedTimerSendsItsActionOrItsFailure() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.startWatched)
    store.advance(by: .seconds(1))
    store.receive(.fired("watched")) { $0.log = ["watched"] }

    store.send(.startWatched)
    let failure = EffectFailure(.workerUnavailable, "the timer worker died")
    store.respond(to: .timer(.after(.seconds(1))), with: .failure(failure))
    store.receive(.failed(failure)) { $0.log.append("failed: the timer worker died") }
    #expect(store.inFlight.isEmpty)

    // A reply no timer gives is a failure too, not a silent drop.
    store.send(.startWatched)
    store.respond(to: .timer(.after(.seconds(1))), with: .http(HTTPResponse(status: 200)))
    store.receive(
      .failed(
        EffectFailure(.invalidRequest, "unexpected reply \(EffectReply.http(HTTPResponse(status: 200))) to a timer"))
    ) {
      $0.log.append("failed: unexpected reply \(EffectReply.http(HTTPResponse(status: 200))) to a timer")
    }
  }

  @Test func aWatchedRepeatingTimerTicksUntilItFails() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.startTicking)
    store.advance(by: .seconds(2))
    store.receive(.fired("tick 1")) { $0.log = ["tick 1"] }
    store.receive(.fired("tick 2")) { $0.log.append("tick 2") }
    let failure = EffectFailure(.workerUnavailable, "the timer worker died")
    store.respond(to: .timer(.every(.seconds(1))), with: .failure(failure))
    store.receive(.failed(failure)) { $0.log.append("failed: the timer worker died") }
    #expect(store.inFlight.isEmpty)
  }

  @Test func aWatchedDebounceStillDeliversOnlyTheLastOrItsFailure() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.typedWatched(1))
    store.advance(by: .milliseconds(500))
    store.send(.typedWatched(2))
    #expect(store.inFlight.count == 1)
    store.advance(by: .seconds(1))
    store.receive(.debounced(2)) { $0.log = ["debounced 2"] }

    store.send(.typedWatched(3))
    let failure = EffectFailure(.workerUnavailable, "the timer worker is down")
    store.respond(to: .timer(.after(.seconds(1))), with: .failure(failure))
    store.receive(.failed(failure)) { $0.log.append("failed: the timer worker is down") }
  }

  @Test func anUnwatchedTimerDropsItsFailure() {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    store.send(.startSearch("a"))
    store.respond(to: .timer(.after(.seconds(1))), with: .failure(EffectFailure(.workerUnavailable, "down")))
    #expect(store.inFlight.isEmpty)
  }

  @Test func mapLiftsSendsAndReplies() {
    let effect = Effect<Int>.merge(.send(1), .timer(after: .seconds(1), send: 2)).map { "\($0)" }
    let executor = RecordingExecutor()
    let store = Store(
      initialState: [String](),
      reducer: Reduce { state, action in
        state.append(action)
        return action == "go" ? effect : .none
      }, executor: executor)
    store.send("go")
    #expect(store.state == ["go", "1"])
    store.deliver(.timerFired(tick: 1), to: executor.started[0].id)
    #expect(store.state == ["go", "1", "2"])
  }

  @Test func noneIsDroppedFromMergeAndConcatenate() {
    #expect(Effect<Int>.merge(.none, .none).isNone)
    #expect(Effect<Int>.concatenate([]).isNone)
    #expect(!Effect<Int>.merge(.none, .send(1)).isNone)
  }
}
