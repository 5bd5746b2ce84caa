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
      to: .http(
        HTTPRequest(url: "http://numbers.test/42", headers: [HTTPHeader("Accept", "text/plain")], timeout: .seconds(15))
      ),
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
      $0.errorMessage = "The number facts service answered with status 500."
    }
  }

  /// The failure's message (the URL, libcurl's words, a URLError code) is
  /// for logs; a person reads a sentence about the number facts service.
  @Test(arguments: [
    (
      EffectFailure(
        .connection,
        "GET http://numbers.test/7: could not connect to the server (connection refused or unreachable) "
          + "(Failed to connect to numbers.test port 80 after 0 ms: Couldn't connect to server; URLError -1004)"),
      "Could not connect to the number facts service."
    ),
    (
      EffectFailure(.timeout, "GET http://numbers.test/7: no answer within 15000 ms"),
      "The number facts service did not answer in time."
    ),
    (
      EffectFailure(.decoding, "GET http://numbers.test/7: body over 8388608 bytes"),
      "The number facts service sent an answer that could not be read."
    ),
    (
      EffectFailure(.workerUnavailable, "the network worker is unavailable: it is degraded after crashing repeatedly"),
      "The number facts service cannot be reached right now. Try again shortly."
    ),
    (
      EffectFailure(
        .interrupted, "the network worker (pid 42) was killed by signal 9 (Killed) after this request was handed to it"),
      "The answer from the number facts service was lost. Try again."
    ),
    (
      EffectFailure(.invalidRequest, "GET http://numbers.test/7: bad URL"),
      "The request to the number facts service could not be sent."
    ),
  ])
  func aFailedFactShowsASentenceNotTheWorkersMessage(failure: EffectFailure, message: String) {
    let store = TestStore(initialState: Counter.State(count: 7)) { Counter() }
    store.send(.numberFactButtonTapped) { $0.isLoading = true }
    store.respond(to: store.inFlight[0].id, with: .failure(failure))
    store.receive(.numberFactFailed(failure)) {
      $0.isLoading = false
      $0.errorMessage = message
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
      $0.errorMessage = "Could not connect to the number facts service."
    }
  }

  @Test func recoveredWithNoFactLoadingDoesNothing() {
    let store = TestStore(initialState: Counter.State(count: 3, numberFact: "3 is odd.")) { Counter() }
    #expect(!store.state.isAwaitingEffect)
    store.send(.recovered)
    store.expectInFlight([])
  }

  /// The fact about 3 is not shown while the one about 4 is fetched, nor
  /// beside its failure.
  @Test func aFactAboutAnEarlierCountGoesWhenAnotherIsAskedFor() {
    let store = TestStore(initialState: Counter.State(count: 4, numberFact: "3 is a prime.")) { Counter() }
    store.send(.numberFactButtonTapped) {
      $0.isLoading = true
      $0.numberFact = nil
    }
    let failure = EffectFailure(.connection, "connection refused")
    store.respond(to: store.inFlight[0].id, with: .failure(failure))
    store.receive(.numberFactFailed(failure)) {
      $0.isLoading = false
      $0.errorMessage = "Could not connect to the number facts service."
    }
  }
}
