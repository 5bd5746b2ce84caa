import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

@Suite struct CounterTests {
  @Test func incrementAndDecrement() {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    store.send(.incrementButtonTapped) { $0.count = 1 }
    store.send(.decrementButtonTapped) { $0.count = 0 }
    store.send(.decrementButtonTapped) { $0.count = -1 }
  }

  @Test func numberFactArrives() {
    let store = TestStore(initialState: Counter.State(count: 42)) { Counter() }
    store.send(.numberFactButtonTapped) { $0.isLoading = true }
    store.respond(
      to: .http(HTTPRequest(url: "http://numbers.test/42", headers: [HTTPHeader("Accept", "text/plain")], timeout: .seconds(15))),
      with: .http(HTTPResponse(status: 200, text: "42 is the answer.")))
    store.receive(.numberFactResponse("42 is the answer.")) {
      $0.isLoading = false
      $0.numberFact = "42 is the answer."
    }
  }

  @Test func numberFactFailureShowsError() {
    let store = TestStore(initialState: Counter.State(count: 7)) { Counter() }
    store.send(.numberFactButtonTapped) { $0.isLoading = true }
    let request = store.inFlight[0]
    store.respond(to: request.id, with: .http(HTTPResponse(status: 500, text: "oops")))
    let failure = EffectFailure(.httpStatus, "GET http://numbers.test/7 answered 500", status: 500)
    store.receive(.numberFactFailed(failure)) {
      $0.isLoading = false
      $0.errorMessage = failure.message
    }
  }

  @Test func newFactRequestCancelsTheOldOne() {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    store.send(.numberFactButtonTapped) { $0.isLoading = true }
    store.send(.incrementButtonTapped) { $0.count = 1 }
    store.send(.numberFactButtonTapped)
    #expect(store.inFlight.count == 1)
    guard case .http(let request) = store.inFlight.first?.request else {
      Issue.record("expected one HTTP request in flight")
      return
    }
    #expect(request.url == "http://numbers.test/1")
    store.respond(to: .http(request), with: .http(HTTPResponse(status: 200, text: "1 is one.")))
    store.receive(.numberFactResponse("1 is one.")) {
      $0.isLoading = false
      $0.numberFact = "1 is one."
    }
  }

  // MARK: After a restart

  @Test func aFactLoadingWhenStoredaemonStoppedIsFetchedAgain() {
    let store = TestStore(initialState: Counter.State(count: 42, isLoading: true)) { Counter() }
    store.send(.recovered)
    let request = EffectRequest.http(
      HTTPRequest(url: "http://numbers.test/42", headers: [HTTPHeader("Accept", "text/plain")], timeout: .seconds(15)))
    store.expectInFlight([request])
    store.respond(to: request, with: .http(HTTPResponse(status: 200, text: "42 is the answer.")))
    store.receive(.numberFactResponse("42 is the answer.")) {
      $0.isLoading = false
      $0.numberFact = "42 is the answer."
    }
  }

  @Test func aRestartedFetchFailsAsAnyFetch() {
    let store = TestStore(initialState: Counter.State(count: 7, isLoading: true)) { Counter() }
    store.send(.recovered)
    let failure = EffectFailure(.connection, "connection refused")
    store.respond(to: store.inFlight[0].id, with: .failure(failure))
    store.receive(.numberFactFailed(failure)) {
      $0.isLoading = false
      $0.errorMessage = "connection refused"
    }
  }

  @Test func recoveredWithNoFactLoadingDoesNothing() {
    let store = TestStore(initialState: Counter.State(count: 3, numberFact: "3 is odd.")) { Counter() }
    #expect(!store.state.isAwaitingEffect)
    store.send(.recovered)
    store.expectInFlight([])
  }
}
