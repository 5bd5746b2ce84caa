import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

@Suite struct ProductListTests {
  @Test func theCatalogShipsBundled() {
    let state = ProductList.State()
    #expect(state.status == .bundled)
    #expect(state.products == Product.bundledCatalog)
    #expect(state.rows.ids == Array(1...20))
    #expect(state.rows.allSatisfy { !$0.addToCart.$count.isFilled })
    #expect(state.status.canFetch)
  }

  @Test func fetchingReplacesTheBundledCatalogWithTheLiveOne() {
    let store = TestStore(initialState: ProductList.State()) { ProductList() }
    store.send(.fetchProducts) { $0.status = .loading }
    store.expectInFlight([OnlineStoreFixtures.productsRequest])
    store.respond(
      to: OnlineStoreFixtures.productsRequest, with: OnlineStoreFixtures.ok(OnlineStoreFixtures.productsJSON))
    store.receive(.productsResponse(Product.samples)) {
      $0.status = .loaded
      $0.rows = OnlineStoreFixtures.rows()
    }
    #expect(store.state.products == Product.samples)
  }

  @Test func fetchIsIgnoredWhileLoadingAndOnceLoaded() {
    let store = TestStore(initialState: ProductList.State()) { ProductList() }
    store.send(.fetchProducts) { $0.status = .loading }
    store.send(.fetchProducts)
    store.expectInFlight([OnlineStoreFixtures.productsRequest])
    store.respond(to: OnlineStoreFixtures.productsRequest, with: .http(try! HTTPResponse(json: Product.samples)))
    store.receive(.productsResponse(Product.samples)) {
      $0.status = .loaded
      $0.rows = OnlineStoreFixtures.rows()
    }
    store.send(.fetchProducts)
    store.expectInFlight([])
  }

  @Test func serverErrorKeepsTheBundledRowsAndRetrySucceeds() {
    let store = TestStore(initialState: ProductList.State()) { ProductList() }
    store.send(.fetchProducts) { $0.status = .loading }
    store.respond(to: OnlineStoreFixtures.productsRequest, with: .http(HTTPResponse(status: 500, text: "boom")))
    let failure = EffectFailure(.httpStatus, "GET https://store.test/products answered 500", status: 500)
    store.receive(.productsFailed(failure)) { $0.status = .failed("The store answered with status 500.") }
    #expect(store.state.rows == ProductList.State.bundledRows)

    store.send(.fetchProducts) { $0.status = .loading }
    store.respond(
      to: OnlineStoreFixtures.productsRequest, with: OnlineStoreFixtures.ok(OnlineStoreFixtures.productsJSON))
    store.receive(.productsResponse(Product.samples)) {
      $0.status = .loaded
      $0.rows = OnlineStoreFixtures.rows()
    }
  }

  @Test func connectionFailureFails() {
    let store = TestStore(initialState: ProductList.State()) { ProductList() }
    store.send(.fetchProducts) { $0.status = .loading }
    let failure = EffectFailure(.connection, "could not connect to store.test")
    store.respond(to: OnlineStoreFixtures.productsRequest, with: .failure(failure))
    store.receive(.productsFailed(failure)) { $0.status = .failed("Could not connect to the store.") }
  }

  @Test func aMissingNetworkWorkerFailsInsteadOfLoadingForever() {
    let store = TestStore(initialState: ProductList.State()) { ProductList() }
    store.send(.fetchProducts) { $0.status = .loading }
    let failure = EffectFailure(.workerUnavailable, "the network worker died with the request in flight")
    store.respond(to: OnlineStoreFixtures.productsRequest, with: .failure(failure))
    store.receive(.productsFailed(failure)) {
      $0.status = .failed("The store cannot be reached right now. Try again shortly.")
    }
    #expect(store.state.rows == ProductList.State.bundledRows)
    store.send(.fetchProducts) { $0.status = .loading }
    store.expectInFlight([OnlineStoreFixtures.productsRequest])
    store.skipInFlightEffects()
  }

  @Test func aFetchFromNothingLoadsToo() {
    let store = TestStore(initialState: ProductList.State(status: .idle, rows: [])) { ProductList() }
    store.send(.fetchProducts) { $0.status = .loading }
    store.respond(
      to: OnlineStoreFixtures.productsRequest, with: OnlineStoreFixtures.ok(OnlineStoreFixtures.productsJSON))
    store.receive(.productsResponse(Product.samples)) {
      $0.status = .loaded
      $0.rows = OnlineStoreFixtures.rows()
    }
  }

  @Test func undecodableBodyFails() {
    let store = TestStore(initialState: ProductList.State()) { ProductList() }
    store.send(.fetchProducts) { $0.status = .loading }
    let body = #"[{"id":1,"title":"No price"}]"#
    store.respond(to: OnlineStoreFixtures.productsRequest, with: OnlineStoreFixtures.ok(body))
    let message = OnlineStoreFixtures.decodingMessage([Product].self, url: "https://store.test/products", body: body)
    store.receive(.productsFailed(EffectFailure(.decoding, message))) {
      $0.status = .failed("The store sent an answer that could not be read.")
    }
    #expect(message.contains("price"))
  }

  @Test func repeatedProductIdKeepsTheFirst() {
    let store = TestStore(initialState: ProductList.State()) { ProductList() }
    var duplicate = Product.samples[1]
    duplicate.id = 1
    store.send(.productsResponse([Product.samples[0], duplicate, Product.samples[2]])) {
      $0.status = .loaded
      $0.rows = [ProductRow.State(product: Product.samples[0]), ProductRow.State(product: Product.samples[2])]
    }
  }

  /// The list on its own (a row's counter holding its own count, as the
  /// app's root fills it from the cart): counters count up and down to zero.
  @Test func rowCountersCountUpAndDownToZero() {
    let rows = IdentifiedArrayOf(uniqueElements: Product.samples.map { ProductRow.State(product: $0, count: 0) })
    let store = TestStore(initialState: ProductList.State(status: .loaded, rows: rows)) { ProductList() }
    store.send(.rows(.element(id: 3, action: .addToCart(.plusButtonTapped)))) { $0.rows[id: 3]?.addToCart.count = 1 }
    store.send(.rows(.element(id: 3, action: .addToCart(.plusButtonTapped)))) { $0.rows[id: 3]?.addToCart.count = 2 }
    store.send(.rows(.element(id: 1, action: .addToCart(.plusButtonTapped)))) { $0.rows[id: 1]?.addToCart.count = 1 }
    store.send(.rows(.element(id: 3, action: .addToCart(.minusButtonTapped)))) { $0.rows[id: 3]?.addToCart.count = 1 }
    store.send(.rows(.element(id: 3, action: .addToCart(.minusButtonTapped)))) { $0.rows[id: 3]?.addToCart.count = 0 }
    store.send(.rows(.element(id: 3, action: .addToCart(.minusButtonTapped))))
  }
}
