import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import Testing

@testable import Features

/// Stories of the root: every feature is reachable under its name, the online
/// store's parts stay in step, and tabs fetch what they show.
@Suite struct AppFeatureTests {
  typealias Fixtures = OnlineStoreFixtures
  let jacket = Product.samples[2]

  @Test func theInitialStateShowsTheBundledCatalog() {
    let state = AppFeature.State()
    #expect(state.products.status == .bundled)
    #expect(state.products.products == Product.bundledCatalog)
    #expect(state.products.products == Product.bundledCatalog)
    #expect(state.cart.items.isEmpty)
  }

  @Test func cartAddItemWorksBeforeAnyFetch() {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    store.send(.cart(.addItem(3))) {
      $0.cart.items = [CartItem(product: Product.bundledCatalog[2], quantity: 1)]
    }
    #expect(store.state.cart.totalPriceText == "$55.99")
    #expect(store.state.cart.items.first?.product.title == "Mens Cotton Jacket")
  }

  @Test func selectingProductsFetchesTheLiveCatalogOverTheBundledOne() {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    store.send(.tabSelected(.products)) { $0.selectedTab = .products }
    store.receive(.products(.fetchProducts)) { $0.products.status = .loading }
    store.respond(to: Fixtures.productsRequest, with: Fixtures.ok(Fixtures.productsJSON))
    store.receive(.products(.productsResponse(Product.samples))) {
      $0.products.status = .loaded
      $0.products.rows = Fixtures.rows()
    }
    store.send(.cart(.addItem(3))) {
      $0.cart.items = [CartItem(product: self.jacket, quantity: 1)]
    }
    store.send(.tabSelected(.counter)) { $0.selectedTab = .counter }
    store.send(.tabSelected(.products)) { $0.selectedTab = .products }
    store.expectInFlight([])
  }

  @Test func aFailedLiveFetchKeepsTheBundledCatalogAndRetryWorks() {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    store.send(.tabSelected(.products)) { $0.selectedTab = .products }
    store.receive(.products(.fetchProducts)) { $0.products.status = .loading }
    let failure = EffectFailure(.workerUnavailable, "no network worker is running")
    store.respond(to: Fixtures.productsRequest, with: .failure(failure))
    store.receive(.products(.productsFailed(failure))) {
      $0.products.status = .failed("The store cannot be reached right now. Try again shortly.")
    }
    #expect(store.state.products.products == Product.bundledCatalog)
    // Selecting the tab again does not retry on its own; Retry does.
    store.send(.tabSelected(.counter)) { $0.selectedTab = .counter }
    store.send(.tabSelected(.products)) { $0.selectedTab = .products }
    store.expectInFlight([])
    store.send(.products(.fetchProducts)) { $0.products.status = .loading }
    store.respond(to: Fixtures.productsRequest, with: Fixtures.ok(Fixtures.productsJSON))
    store.receive(.products(.productsResponse(Product.samples))) {
      $0.products.status = .loaded
      $0.products.rows = Fixtures.rows()
    }
  }

  @Test func selectingALoadingTabDoesNotFetchAgain() {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    store.send(.tabSelected(.profile)) { $0.selectedTab = .profile }
    store.receive(.profile(.fetchProfile)) { $0.profile.status = .loading }
    store.send(.tabSelected(.counter)) { $0.selectedTab = .counter }
    store.send(.tabSelected(.profile)) { $0.selectedTab = .profile }
    store.expectInFlight([Fixtures.profileRequest])
    store.respond(to: Fixtures.profileRequest, with: .failure(EffectFailure(.connection, "connection refused")))
    store.receive(.profile(.profileFailed(EffectFailure(.connection, "connection refused")))) {
      $0.profile.status = .failed("Could not connect to the store.")
    }
  }

  @Test func everyFeatureIsReachableUnderItsName() {
    let store = TestStore(
      initialState: AppFeature.State(),
      reducer: { AppFeature() },
      withDependencies: { $0.randomNumbers = .constant(4) })
    store.exhaustivity = .off
    store.send(.counter(.incrementButtonTapped)) { $0.counter.count = 1 }
    store.send(.dice(.view(.rollButtonTapped))) { $0.dice.isRolling = true }
    store.advance(by: Dice.rollDuration)
    store.receive(.dice(.internal(.rollCompleted(4)))) { $0.dice.currentRoll = 4 }
    store.send(.bmi(.tabSelected(.history))) { $0.bmi.selectedTab = .history }
    store.send(.search(.textChanged("cats"))) { $0.search.text = "cats" }
    #expect(store.inFlight.map(\.request.workerKind).sorted { $0.rawValue < $1.rawValue } == [.storage, .timer])
    store.skipInFlightEffects()
  }

  @Test func featuresRunTheirEffectsSideBySide() {
    let store = TestStore(
      initialState: AppFeature.State(),
      reducer: { AppFeature() },
      withDependencies: { $0.randomNumbers = .constant(2) })
    store.exhaustivity = .off
    store.send(.counter(.numberFactButtonTapped))
    store.send(.dice(.view(.rollButtonTapped)))
    store.send(.search(.textChanged("")))
    #expect(store.inFlight.count == 2)
    store.skipInFlightEffects()
  }

  @Test func actionsEncodeAsTheirCommandLinePaths() throws {
    let json = try JSONValueEncoder.encode(AppFeature.Action.cart(.addItem(3)))
    #expect(CanonicalJSON.text(json) == #"{"cart":{"addItem":3}}"#)
    #expect(try JSONValueDecoder.decode(AppFeature.Action.self, from: json) == .cart(.addItem(3)))
  }

  @Test func theWholeStateRoundTripsThroughJSON() throws {
    var state = AppFeature.State()
    state.products.rows = Fixtures.rows()
    state.cart = Cart.State(items: [CartItem(product: jacket, quantity: 2)])
    state.dice.rollHistory = [3, 6]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(state)
    #expect(try JSONDecoder().decode(AppFeature.State.self, from: data) == state)
    let object = try JSONDecoder().decode(JSONValue.self, from: data)
    guard case .object(let members) = object else {
      Issue.record("the state must encode as a JSON object")
      return
    }
    #expect(
      members.keys.sorted() == [
        "bmi", "cart", "counter", "dice", "inventory", "parent", "products", "profile", "search", "selectedTab",
      ])
  }

  /// A state saved before seed 003's features were added decodes, with them new.
  @Test func aStateSavedBeforeSeed003sFeaturesDecodesWithThemNew() throws {
    var state = AppFeature.State()
    state.dice.rollHistory = [3, 6]
    guard case .object(var members) = try JSONValue(encoding: state) else {
      Issue.record("the state must encode as a JSON object")
      return
    }
    members["parent"] = nil
    members["inventory"] = nil
    #expect(try CanonicalJSON.decode(AppFeature.State.self, from: .object(members)) == state)
  }
}
