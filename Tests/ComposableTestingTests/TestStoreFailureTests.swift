import ComposableCore
import ComposableTesting
import Testing

/// A small feature whose actions produce each situation a TestStore must catch.
struct Probe: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var name = "probe"
    var log: [String] = []
  }
  enum Action: Equatable, Sendable {
    case increment, noop, sendFollowUp, followUp, startTimer, timerFired, fetch
    case fetched(Int)
    case startTicking
    case tick(Int)
  }
  enum CancelID { case ticking }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .noop:
        return .none
      case .sendFollowUp:
        return .send(.followUp)
      case .followUp:
        state.log.append("follow-up")
        return .none
      case .startTimer:
        return .timer(after: .seconds(1), send: .timerFired)
      case .timerFired:
        state.log.append("fired")
        return .none
      case .fetch:
        return .http(.get("https://probe.test/n")) { result in
          .fetched((try? result.get().status) ?? -1)
        }
      case .fetched(let status):
        state.count = status
        return .none
      case .startTicking:
        return .timer(every: .seconds(1)) { .tick($0) }.cancellable(id: CancelID.ticking)
      case .tick(let n):
        state.count = n
        return n == 3 ? .cancel(id: CancelID.ticking) : .none
      }
    }
  }
}

/// Whether a recorded issue's comments contain every fragment.
func mentions(_ fragments: String...) -> (Issue) -> Bool {
  { issue in
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    return fragments.allSatisfy { text.contains($0) }
  }
}

@Suite struct TestStoreFailureTests {
  @Test func wrongExpectedStateFailsWithADiffNamingTheAction() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    withKnownIssue {
      store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      mentions(
        "State after send(.increment) is not as expected", "(− expected, + actual)", "−   count: 2,", "+   count: 1,")(
          issue)
    }
  }

  @Test func anUnassertedChangeFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    withKnownIssue {
      store.send(.increment)
    } matching: {
      mentions("The state changed, but no change was asserted.")($0)
    }
  }

  @Test func anAssertionThatChangesNothingFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    withKnownIssue {
      store.send(.noop) { $0.count = 0 }
    } matching: {
      mentions("Expected the state to change after send(.noop)")($0)
    }
  }

  @Test func receivingWhenNothingArrivedFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    withKnownIssue {
      store.receive(.followUp)
    } matching: {
      mentions("Expected to receive .followUp, but no action was received.")($0)
    }
  }

  @Test func receivingTheWrongActionFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.sendFollowUp)
    withKnownIssue {
      store.receive(.timerFired) { $0.log = ["follow-up"] }
    } matching: {
      mentions("Received an unexpected action", "− .timerFired", "+ .followUp")($0)
    }
  }

  @Test func aReceivedActionWithWrongStateFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.sendFollowUp)
    withKnownIssue {
      store.receive(.followUp) { $0.log = ["something else"] }
    } matching: {
      mentions("State after receive(.followUp) is not as expected", "\"something else\"", "\"follow-up\"")($0)
    }
  }

  @Test func sendingBeforeHandlingReceivedActionsFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.sendFollowUp)
    withKnownIssue {
      store.send(.noop)
    } matching: {
      mentions("Must handle 1 received action(s) before sending .noop", ".followUp")($0)
    }
  }

  @Test func finishingWithUnreceivedActionsFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.sendFollowUp)
    withKnownIssue {
      store.finish()
    } matching: {
      mentions("The store received 1 unexpected action(s)", ".followUp")($0)
    }
  }

  @Test func finishingWithEffectsInFlightFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.fetch)
    withKnownIssue {
      store.finish()
    } matching: {
      mentions("1 effect(s) still in flight", "https://probe.test/n")($0)
    }
  }

  @Test func droppingTheStoreWithoutFinishingStillChecks() {
    withKnownIssue {
      let store = TestStore(initialState: Probe.State()) { Probe() }
      store.send(.startTimer)
    } matching: {
      mentions("still in flight", "timer")($0)
    }
  }

  @Test func respondingToARequestThatIsNotInFlightFails() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.fetch)
    withKnownIssue {
      store.respond(to: .http(.get("https://probe.test/other")), with: .http(HTTPResponse(status: 200)))
    } matching: {
      mentions("No request in flight matches", "https://probe.test/other", "In flight:", "https://probe.test/n")($0)
    }
    store.respond(to: .http(.get("https://probe.test/n")), with: .http(HTTPResponse(status: 201)))
    store.receive(.fetched(201)) { $0.count = 201 }
  }

  @Test func unexpectedRequestsInFlightFail() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.fetch)
    withKnownIssue {
      store.expectInFlight([])
    } matching: {
      mentions("The requests in flight are not as expected", "https://probe.test/n")($0)
    }
    store.expectInFlight([.http(.get("https://probe.test/n"))])
    store.skipInFlightEffects()
  }
}

@Suite struct TestStoreBehaviourTests {
  @Test func timersFireOnlyWhenTheClockReachesThem() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.startTimer)
    store.advance(by: .milliseconds(999))
    #expect(store.inFlight.count == 1)
    store.advance(by: .milliseconds(1))
    store.receive(.timerFired) { $0.log = ["fired"] }
    #expect(store.elapsed == .seconds(1))
  }

  @Test func repeatingTimersTickUntilCancelled() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.startTicking)
    store.advance(by: .seconds(10))
    store.receive(.tick(1)) { $0.count = 1 }
    store.receive(.tick(2)) { $0.count = 2 }
    store.receive(.tick(3)) { $0.count = 3 }
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.exhaustivity = .off
    store.send(.increment)
    store.send(.sendFollowUp)
    store.send(.increment) { $0.count = 2 }
    store.send(.fetch)
    // Unreceived actions and the request in flight are not failures in this mode.
  }

  @Test func nonExhaustiveStillFailsAWrongAssertion() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.exhaustivity = .off
    withKnownIssue {
      store.send(.increment) { $0.count = 5 }
    } matching: {
      mentions("−   count: 5,", "+   count: 1,")($0)
    }
  }

  @Test func nonExhaustiveReceiveSkipsToTheMatchingAction() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.exhaustivity = .off
    store.send(.startTicking)
    store.advance(by: .seconds(3))
    store.receive(.tick(3)) { $0.count = 3 }
  }

  @Test func skipReceivedActionsAdoptsTheirState() {
    let store = TestStore(initialState: Probe.State()) { Probe() }
    store.send(.sendFollowUp)
    store.skipReceivedActions()
    #expect(store.state.log == ["follow-up"])
    store.send(.increment) { $0.count = 1 }
  }
}
