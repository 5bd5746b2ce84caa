import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

/// Stories of the debounced search: typing, the debounce, the search and its
/// results, superseded searches and resets. Failures are in GIFSearchFailureTests.
@Suite struct GIFSearchTests {
  typealias F = GIFSearchFixtures

  @Test func typingQuicklySearchesOnceForTheLastText() throws {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("c")) { $0.text = "c" }
    store.advance(by: .milliseconds(500))
    store.send(.textChanged("ca")) { $0.text = "ca" }
    store.advance(by: .milliseconds(500))
    store.send(.textChanged("cat")) { $0.text = "cat" }
    // One debounce timer, restarted by each keystroke: the ones for "c" and "ca" are gone.
    store.expectInFlight([F.debounce])
    // Past the moment the timer for "c" would have fired (2 s after it): nothing fires.
    store.advance(by: .milliseconds(1999))
    store.expectInFlight([F.debounce])
    store.advance(by: .milliseconds(1))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    store.expectInFlight([
      .http(
        HTTPRequest(
          method: "GET",
          url: "https://gifs.test/v1/gifs/search?api_key=test-key&q=cat&limit=25&offset=0&rating=g&lang=en",
          headers: [HTTPHeader("Accept", "application/json")], timeout: .seconds(15)))
    ])
    #expect(store.elapsed == .seconds(3))

    let gifs = [F.gif("cat1"), F.gif("cat2", width: "200", height: "400")]
    store.respond(to: F.search("cat"), with: try F.found(gifs))
    store.receive(.searchResponse(gifs)) {
      $0.isLoading = false
      $0.results = [
        GifCard(id: "cat1", gifURL: "https://media.giphy.com/media/cat1/giphy.gif", width: 480, height: 270),
        GifCard(id: "cat2", gifURL: "https://media.giphy.com/media/cat2/giphy.gif", width: 200, height: 400),
      ]
    }
  }

  @Test func aNewQueryReplacesTheResultsInGiphysOrder() throws {
    let cat = GifCard(F.gif("cat1"))
    let store = TestStore(initialState: GIFSearch.State(text: "cat", query: "cat", results: [cat])) { GIFSearch() }
    store.send(.textChanged("dog")) { $0.text = "dog" }
    store.advance(by: .seconds(2))
    // The old results stay on screen while the new ones load.
    store.receive(.debounceElapsed) {
      $0.query = "dog"
      $0.isLoading = true
    }
    // Giphy listing a GIF twice: the first stays where it was.
    let gifs = [F.gif("dog1"), F.gif("dog2"), F.gif("dog1")]
    store.respond(to: F.search("dog"), with: try F.found(gifs))
    store.receive(.searchResponse(gifs)) {
      $0.isLoading = false
      $0.results = [GifCard(F.gif("dog1")), GifCard(F.gif("dog2"))]
    }
  }

  @Test func aSupersededSearchIsCancelledAndOnlyTheLatestLands() throws {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    let catSearch = try #require(store.inFlight.first)
    #expect(catSearch.request == F.search("cat"))

    // Typing alone does not cancel the search: it goes on while the debounce runs.
    store.send(.textChanged("dog")) { $0.text = "dog" }
    store.expectInFlight([F.search("cat"), F.debounce])
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) { $0.query = "dog" }
    // Starting the search for "dog" cancelled the one for "cat".
    store.expectInFlight([F.search("dog")])
    #expect(!store.inFlight.contains { $0.id == catSearch.id })
    // A late answer to "cat" has nowhere to land: the store no longer waits for it.
    let lateAnswer = try F.found([F.gif("cat1")])
    withKnownIssue("the search for cat is no longer in flight") {
      store.respond(to: catSearch.id, with: lateAnswer)
    }

    let dogs = [F.gif("dog1")]
    store.respond(to: F.search("dog"), with: try F.found(dogs))
    store.receive(.searchResponse(dogs)) {
      $0.isLoading = false
      $0.results = [GifCard(F.gif("dog1"))]
    }
  }

  @Test func emptyTextResetsAndCancelsTheSearchInFlight() throws {
    let cat = GifCard(F.gif("cat1"))
    let store = TestStore(initialState: GIFSearch.State(text: "cat", query: "cat", results: [cat])) { GIFSearch() }
    store.send(.textChanged("dog")) { $0.text = "dog" }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.query = "dog"
      $0.isLoading = true
    }
    store.expectInFlight([F.search("dog")])
    store.send(.textChanged("")) {
      $0.text = ""
      $0.query = ""
      $0.results = []
      $0.isLoading = false
    }
    store.expectInFlight([])
  }

  @Test func emptyTextCancelsThePendingDebounce() {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("c")) { $0.text = "c" }
    store.expectInFlight([F.debounce])
    store.send(.textChanged("")) { $0.text = "" }
    store.expectInFlight([])
    // No timer is left to fire, so no search ever starts.
    store.advance(by: .seconds(10))
  }

  @Test func spacesOnlyCountAsEmpty() {
    let store = TestStore(initialState: GIFSearch.State(text: "cat", query: "cat", results: [GifCard(F.gif("cat1"))])) {
      GIFSearch()
    }
    store.send(.textChanged("   ")) {
      $0.text = "   "
      $0.query = ""
      $0.results = []
    }
    store.expectInFlight([])
  }

  @Test func theQueryIsTrimmedAndPercentEncoded() throws {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("  cats & dogs+1 ")) { $0.text = "  cats & dogs+1 " }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.query = "cats & dogs+1"
      $0.isLoading = true
    }
    store.respond(to: F.search("cats%20%26%20dogs%2B1"), with: try F.found([]))
    store.receive(.searchResponse([])) { $0.isLoading = false }
  }

  @Test func anUnchangedTextNeitherRestartsTheDebounceNorSearchesAgain() throws {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.advance(by: .milliseconds(1500))
    // The same text notified twice (as a text field may) is not a change.
    store.send(.textChanged("cat"))
    store.advance(by: .milliseconds(500))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    store.respond(to: F.search("cat"), with: try F.found([F.gif("cat1")]))
    store.receive(.searchResponse([F.gif("cat1")])) {
      $0.isLoading = false
      $0.results = [GifCard(F.gif("cat1"))]
    }
    // A trailing space changes the text but not the query: the results stay, no request.
    store.send(.textChanged("cat ")) { $0.text = "cat " }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed)
    store.expectInFlight([])
  }

  @Test func theDebounceIntervalComesFromConfiguration() throws {
    let store = TestStore(initialState: GIFSearch.State()) {
      GIFSearch()
    } withDependencies: {
      $0.configuration.searchDebounceMilliseconds = 300
    }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.expectInFlight([.timer(.after(.milliseconds(300)))])
    store.advance(by: .milliseconds(299))
    store.expectInFlight([.timer(.after(.milliseconds(300)))])
    store.advance(by: .milliseconds(1))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    store.respond(to: F.search("cat"), with: try F.found([]))
    store.receive(.searchResponse([])) { $0.isLoading = false }
  }

  @Test func theDefaultDebounceIsTwoSeconds() {
    #expect(AppConfiguration.live.searchDebounce == .seconds(2))
    #expect(AppConfiguration.test.searchDebounce == .seconds(2))
  }

  // MARK: After a restart

  @Test func aSearchPendingBehindTheDebounceStartsAtOnce() throws {
    // Typed "cat", then storedaemon stopped before the debounce fired.
    let store = TestStore(initialState: GIFSearch.State(text: " cat")) { GIFSearch() }
    #expect(store.state.hasPendingSearch)
    store.send(.recovered) {
      $0.query = "cat"
      $0.isLoading = true
    }
    store.expectInFlight([F.search("cat")])
    store.respond(to: F.search("cat"), with: try F.found([F.gif("cat1")]))
    store.receive(.searchResponse([F.gif("cat1")])) {
      $0.isLoading = false
      $0.results = [GifCard(F.gif("cat1"))]
    }
  }

  @Test func aSearchInFlightStartsAgain() throws {
    let store = TestStore(initialState: GIFSearch.State(text: "cat", query: "cat", isLoading: true)) { GIFSearch() }
    store.send(.recovered)
    store.expectInFlight([F.search("cat")])
    store.respond(to: F.search("cat"), with: try F.found([]))
    store.receive(.searchResponse([])) { $0.isLoading = false }
  }

  @Test func aSearchInFlightWithANewerTextPendingSearchesForTheText() throws {
    // "cat" was being searched and "dog" typed meanwhile: only "dog" matters.
    let cat = GifCard(F.gif("cat1"))
    let store = TestStore(
      initialState: GIFSearch.State(text: "dog", query: "cat", results: [cat], isLoading: true)
    ) { GIFSearch() }
    store.send(.recovered) { $0.query = "dog" }
    store.expectInFlight([F.search("dog")])
    store.respond(to: F.search("dog"), with: try F.found([F.gif("dog1")]))
    store.receive(.searchResponse([F.gif("dog1")])) {
      $0.isLoading = false
      $0.results = [GifCard(F.gif("dog1"))]
    }
  }

  @Test(arguments: [
    GIFSearch.State(),
    GIFSearch.State(text: "   "),
    GIFSearch.State(text: "cat", query: "cat", results: [GifCard(GIFSearchFixtures.gif("cat1"))]),
    GIFSearch.State(text: "cat ", query: "cat", results: [GifCard(GIFSearchFixtures.gif("cat1"))]),
    GIFSearch.State(text: "cat", query: "cat", errorMessage: "Could not connect to the GIF service."),
  ])
  func recoveredWithNoSearchInFlightOrPendingDoesNothing(state: GIFSearch.State) {
    let store = TestStore(initialState: state) { GIFSearch() }
    #expect(!state.isAwaitingEffect)
    store.send(.recovered)
    store.expectInFlight([])
  }
}
