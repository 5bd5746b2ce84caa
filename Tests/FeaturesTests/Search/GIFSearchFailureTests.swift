import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

/// Stories of failed searches: each kind of failure is shown (the seed
/// swallowed them), and the search can be retried.
@Suite struct GIFSearchFailureTests {
  typealias F = GIFSearchFixtures

  /// A store whose search for "cat" is in flight, with results of an earlier
  /// query ("dog") still shown.
  private func storeSearchingForCat() -> TestStore<GIFSearch> {
    let dog = GifCard(F.gif("dog1"))
    let store = TestStore(initialState: GIFSearch.State(text: "dog", query: "dog", results: [dog])) { GIFSearch() }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    store.expectInFlight([F.search("cat")])
    return store
  }

  @Test func aServerErrorIsShownAndTheOldResultsCleared() {
    let store = storeSearchingForCat()
    store.respond(to: F.search("cat"), with: .http(HTTPResponse(status: 500, text: "oops")))
    let failure = EffectFailure(
      .httpStatus, "GET \(HTTPRequest.get(F.searchURL("cat")).displayURL) answered 500", status: 500)
    store.receive(.searchFailed(failure)) {
      $0.isLoading = false
      $0.results = []
      $0.errorMessage = "The GIF service answered with status 500."
    }
  }

  @Test func anUndecodableBodyIsShown() {
    let store = storeSearchingForCat()
    let body = Data(#"{"data": [{"id": "cat1"}]}"#.utf8)
    store.respond(to: F.search("cat"), with: .http(HTTPResponse(status: 200, body: body)))
    store.receive(.searchFailed(F.decodingFailure(url: F.searchURL("cat"), body: body))) {
      $0.isLoading = false
      $0.results = []
      $0.errorMessage = "The GIF service sent an answer that could not be read."
    }
  }

  @Test func aDebounceTimerThatCannotFireSearchesAtOnce() {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.respond(to: F.debounce, with: .failure(EffectFailure(.workerUnavailable, "the timer worker is down")))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    store.expectInFlight([F.search("cat")])
    store.respond(to: F.search("cat"), with: try! F.found([F.gif("cat1")]))
    store.receive(.searchResponse([F.gif("cat1")])) {
      $0.isLoading = false
      $0.results = [GifCard(F.gif("cat1"))]
    }
  }

  @Test func aConnectionFailureIsShown() {
    let store = storeSearchingForCat()
    let failure = EffectFailure(.connection, "connection refused")
    store.respond(to: F.search("cat"), with: .failure(failure))
    store.receive(.searchFailed(failure)) {
      $0.isLoading = false
      $0.results = []
      $0.errorMessage = "Could not connect to the GIF service."
    }
  }

  @Test func aTimeoutIsShown() {
    let store = storeSearchingForCat()
    let failure = EffectFailure(.timeout, "no answer within 15000 ms")
    store.respond(to: F.search("cat"), with: .failure(failure))
    store.receive(.searchFailed(failure)) {
      $0.isLoading = false
      $0.results = []
      $0.errorMessage = "The GIF service did not answer in time."
    }
  }

  @Test func retryingAfterAFailureSearchesAgain() throws {
    let store = storeSearchingForCat()
    let failure = EffectFailure(.connection, "connection reset")
    store.respond(to: F.search("cat"), with: .failure(failure))
    store.receive(.searchFailed(failure)) {
      $0.isLoading = false
      $0.results = []
      $0.errorMessage = "Could not connect to the GIF service."
    }
    store.send(.retryButtonTapped) {
      $0.isLoading = true
      $0.errorMessage = nil
    }
    store.respond(to: F.search("cat"), with: try F.found([F.gif("cat1")]))
    store.receive(.searchResponse([F.gif("cat1")])) {
      $0.isLoading = false
      $0.results = [GifCard(F.gif("cat1"))]
    }
  }

  @Test func afterAFailureTheSameTextSearchesAgain() throws {
    let store = storeSearchingForCat()
    store.respond(to: F.search("cat"), with: .http(HTTPResponse(status: 503, text: "busy")))
    let failure = EffectFailure(
      .httpStatus, "GET \(HTTPRequest.get(F.searchURL("cat")).displayURL) answered 503", status: 503)
    store.receive(.searchFailed(failure)) {
      $0.isLoading = false
      $0.results = []
      $0.errorMessage = "The GIF service answered with status 503."
    }
    // "cat" → "cats" → "cat": the debounced query is the failed one, so it is tried again.
    store.send(.textChanged("cats")) { $0.text = "cats" }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.isLoading = true
      $0.errorMessage = nil
    }
    store.respond(to: F.search("cat"), with: try F.found([]))
    store.receive(.searchResponse([])) { $0.isLoading = false }
  }

  @Test func retryWithoutAQueryDoesNothing() {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.retryButtonTapped)
    store.expectInFlight([])
  }

  @Test(arguments: [
    (EffectFailure.Kind.workerUnavailable, "The GIF service cannot be reached right now. Try again shortly."),
    (.interrupted, "The answer from the GIF service was lost. Try again."),
    (.invalidRequest, "The request to the GIF service could not be sent."),
    (.storage, "The request to the GIF service could not be sent."),
  ])
  func otherFailuresHaveAMessage(kind: EffectFailure.Kind, message: String) {
    #expect(GIFSearch.message(for: EffectFailure(kind, "details"), hasAPIKey: true) == message)
  }

  @Test func theMessageNeverShowsTheRequestURL() {
    let failure = EffectFailure(
      .httpStatus, "GET \(HTTPRequest.get(F.searchURL("cat")).displayURL) answered 429", status: 429)
    let message = GIFSearch.message(for: failure, hasAPIKey: true)
    #expect(message == "The GIF service answered with status 429.")
    #expect(!message.contains("test-key"))
  }

  // MARK: The API key

  /// Giphy answers 401 to a search without a key: storedaemon was started
  /// without one, and the message says how to give it one.
  @Test func withoutAnAPIKeyTheMessageNamesTheSettingThatFixesIt() {
    let store = TestStore(initialState: GIFSearch.State()) {
      GIFSearch()
    } withDependencies: {
      $0.configuration.gifSearchAPIKey = ""
    }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    guard let search = store.inFlight.first, case .http(let request) = search.request,
      request.url.contains("?api_key=&q=cat&")
    else {
      Issue.record("expected the search without a key in flight: \(store.inFlight)")
      return
    }
    store.respond(to: search.id, with: .http(HTTPResponse(status: 401, text: "No API key found in request.")))
    let failure = EffectFailure(.httpStatus, "GET \(request.displayURL) answered 401", status: 401)
    store.receive(.searchFailed(failure)) {
      $0.isLoading = false
      $0.errorMessage =
        "The GIF service needs an API key (it answered with status 401) and none is set. Set one with "
        + "--gif-api-key KEY or STOREDAEMON_GIF_API_KEY=KEY, or gif-api-key = KEY in storedaemon.conf."
    }
  }

  /// Giphy answers 403 to a key it does not know.
  @Test func aRefusedAPIKeyIsSaidToBeInvalid() {
    let store = storeSearchingForCat()
    store.respond(
      to: F.search("cat"), with: .http(HTTPResponse(status: 403, text: "Invalid authentication credentials")))
    let failure = EffectFailure(
      .httpStatus, "GET \(HTTPRequest.get(F.searchURL("cat")).displayURL) answered 403", status: 403)
    store.receive(.searchFailed(failure)) {
      $0.isLoading = false
      $0.results = []
      $0.errorMessage =
        "The GIF service refused the API key (status 403). Set a valid one with "
        + "--gif-api-key KEY or STOREDAEMON_GIF_API_KEY=KEY, or gif-api-key = KEY in storedaemon.conf."
    }
    #expect(store.state.errorMessage?.contains("test-key") == false)
  }

  @Test(arguments: [(401, false), (403, false), (401, true), (403, true)])
  func bothRefusalsNameTheSetting(status: Int, hasAPIKey: Bool) {
    let message = GIFSearch.message(for: EffectFailure(.httpStatus, "refused", status: status), hasAPIKey: hasAPIKey)
    #expect(message.contains("status \(status)"))
    #expect(message.contains("--gif-api-key") && message.contains("STOREDAEMON_GIF_API_KEY"))
    #expect(message.contains(hasAPIKey ? "refused the API key" : "none is set"))
  }
}
