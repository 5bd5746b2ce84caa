import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

@Suite struct OnlineStoreCoordinatorTests {
  let backpack = Product.samples[0]
  let jacket = Product.samples[2]

  /// Products loaded, the cart selling from them, nothing in it.
  var loaded: OnlineStoreTestRoot.State {
    OnlineStoreTestRoot.State(
      products: ProductList.State(status: .loaded, rows: OnlineStoreFixtures.rows()),
      cart: Cart.State(catalog: OnlineStoreFixtures.catalog))
  }

  func plus(_ id: Product.ID) -> OnlineStoreTestRoot.Action {
    .products(.rows(.element(id: id, action: .addToCart(.plusButtonTapped))))
  }

  func minus(_ id: Product.ID) -> OnlineStoreTestRoot.Action {
    .products(.rows(.element(id: id, action: .addToCart(.minusButtonTapped))))
  }

  @Test func bothStartFromTheBundledCatalog() {
    let state = OnlineStoreTestRoot.State()
    #expect(state.products.status == .bundled)
    #expect(state.products.products == Product.bundledCatalog)
    #expect(Array(state.cart.catalog) == state.products.products)
    #expect(state.products.rows.allSatisfy { $0.count == 0 })
  }

  @Test func theBundledCatalogSellsBeforeAnyFetch() {
    let store = TestStore(initialState: OnlineStoreTestRoot.State()) { OnlineStoreTestRoot() }
    let bundledJacket = Product.bundledCatalog[2]
    store.send(.cart(.addItem(3))) {
      $0.cart.items = [CartItem(product: bundledJacket, quantity: 1)]
      $0.products.rows[id: 3]?.count = 1
    }
    store.send(plus(3)) {
      $0.products.rows[id: 3]?.count = 2
      $0.cart.items[id: 3]?.quantity = 2
    }
  }

  @Test func liveProductsReplaceTheBundledCatalogInBoth() {
    let store = TestStore(initialState: OnlineStoreTestRoot.State()) { OnlineStoreTestRoot() }
    let bundledJacket = Product.bundledCatalog[2]
    store.send(.cart(.addItem(3))) {
      $0.cart.items = [CartItem(product: bundledJacket, quantity: 1)]
      $0.products.rows[id: 3]?.count = 1
    }
    store.send(.products(.fetchProducts)) { $0.products.status = .loading }
    store.respond(
      to: OnlineStoreFixtures.productsRequest, with: OnlineStoreFixtures.ok(OnlineStoreFixtures.productsJSON))
    store.receive(.products(.productsResponse(Product.samples))) {
      $0.products.status = .loaded
      $0.products.rows = OnlineStoreFixtures.rows([0, 0, 1])
      $0.cart.catalog = OnlineStoreFixtures.catalog
    }
    store.send(.cart(.addItem(1))) {
      $0.cart.items.append(CartItem(product: self.backpack, quantity: 1))
      $0.products.rows[id: 1]?.count = 1
    }
    store.send(.cart(.addItem(20))) { $0.cart.errorMessage = "Product 20 is not in the catalog." }
  }

  @Test func aFailedFetchKeepsTheBundledCatalogInBoth() {
    let store = TestStore(initialState: OnlineStoreTestRoot.State()) { OnlineStoreTestRoot() }
    store.send(.products(.fetchProducts)) { $0.products.status = .loading }
    let failure = EffectFailure(.workerUnavailable, "no network worker is running")
    store.respond(to: OnlineStoreFixtures.productsRequest, with: .failure(failure))
    store.receive(.products(.productsFailed(failure))) { $0.products.status = .failed("no network worker is running") }
    let bundledJacket = Product.bundledCatalog[2]
    store.send(.cart(.addItem(3))) {
      $0.cart.items = [CartItem(product: bundledJacket, quantity: 1)]
      $0.products.rows[id: 3]?.count = 1
    }
  }

  @Test func reloadedRowsShowTheCartsQuantities() {
    var initial = OnlineStoreTestRoot.State()
    initial.products.status = .failed("offline")
    initial.cart = Cart.State(catalog: OnlineStoreFixtures.catalog, items: [CartItem(product: jacket, quantity: 2)])
    let store = TestStore(initialState: initial) { OnlineStoreTestRoot() }
    store.send(.products(.productsResponse(Product.samples))) {
      $0.products.status = .loaded
      $0.products.rows = OnlineStoreFixtures.rows([0, 0, 2])
    }
  }

  @Test func addingFromARowPutsItInTheCart() {
    let store = TestStore(initialState: loaded) { OnlineStoreTestRoot() }
    store.send(plus(1)) {
      $0.products.rows[id: 1]?.count = 1
      $0.cart.items = [CartItem(product: self.backpack, quantity: 1)]
    }
    store.send(plus(1)) {
      $0.products.rows[id: 1]?.count = 2
      $0.cart.items[id: 1]?.quantity = 2
    }
    store.send(plus(3)) {
      $0.products.rows[id: 3]?.count = 1
      $0.cart.items.append(CartItem(product: self.jacket, quantity: 1))
    }
    #expect(store.state.cart.totalPrice == 275.89)
    store.send(minus(1)) {
      $0.products.rows[id: 1]?.count = 1
      $0.cart.items[id: 1]?.quantity = 1
    }
    store.send(minus(1)) {
      $0.products.rows[id: 1]?.count = 0
      $0.cart.items.remove(id: 1)
    }
    store.send(minus(1))
  }

  @Test func cartChangesShowOnTheRows() {
    let store = TestStore(initialState: loaded) { OnlineStoreTestRoot() }
    store.send(.cart(.addItem(3))) {
      $0.cart.items = [CartItem(product: self.jacket, quantity: 1)]
      $0.products.rows[id: 3]?.count = 1
    }
    store.send(.cart(.incrementItem(3))) {
      $0.cart.items[id: 3]?.quantity = 2
      $0.products.rows[id: 3]?.count = 2
    }
    store.send(.cart(.decrementItem(3))) {
      $0.cart.items[id: 3]?.quantity = 1
      $0.products.rows[id: 3]?.count = 1
    }
    store.send(.cart(.addItem(1))) {
      $0.cart.items.append(CartItem(product: self.backpack, quantity: 1))
      $0.products.rows[id: 1]?.count = 1
    }
    store.send(.cart(.removeItem(3))) {
      $0.cart.items.remove(id: 3)
      $0.products.rows[id: 3]?.count = 0
    }
  }

  @Test func aPlacedOrderResetsEverything() {
    let store = TestStore(initialState: loaded) {
      OnlineStoreTestRoot()
    } withDependencies: {
      $0.date = .constant(CartTests.now)
    }
    store.send(plus(1)) {
      $0.products.rows[id: 1]?.count = 1
      $0.cart.items = [CartItem(product: self.backpack, quantity: 1)]
    }
    store.send(plus(1)) {
      $0.products.rows[id: 1]?.count = 2
      $0.cart.items[id: 1]?.quantity = 2
    }
    store.send(.cart(.addItem(3))) {
      $0.cart.items.append(CartItem(product: self.jacket, quantity: 1))
      $0.products.rows[id: 3]?.count = 1
    }
    store.send(.cart(.payButtonTapped)) { $0.cart.alert = CartAlert.confirmPurchase(total: 275.89) }
    store.send(.cart(.alert(.presented(.confirmPurchase)))) {
      $0.cart.alert = nil
      $0.cart.orderStatus = .sending
    }
    store.respond(to: CartTests.orderRequest, with: OnlineStoreFixtures.ok(#"{"id":11}"#))
    store.receive(.cart(.orderPlaced(orderID: 11))) {
      $0.cart.orderStatus = .placed(orderID: 11)
      $0.cart.items = []
      $0.cart.alert = CartAlert.purchaseSucceeded(orderID: 11)
      $0.products.rows = OnlineStoreFixtures.rows()
    }
    store.send(.cart(.alert(.dismiss))) { $0.cart.alert = nil }
  }

  @Test func aFailedOrderResetsNothing() {
    let store = TestStore(initialState: loaded) {
      OnlineStoreTestRoot()
    } withDependencies: {
      $0.date = .constant(CartTests.now)
    }
    store.send(plus(1)) {
      $0.products.rows[id: 1]?.count = 1
      $0.cart.items = [CartItem(product: self.backpack, quantity: 1)]
    }
    store.send(.cart(.addItem(1))) {
      $0.cart.items[id: 1]?.quantity = 2
      $0.products.rows[id: 1]?.count = 2
    }
    store.send(plus(3)) {
      $0.products.rows[id: 3]?.count = 1
      $0.cart.items.append(CartItem(product: self.jacket, quantity: 1))
    }
    store.send(.cart(.payButtonTapped)) { $0.cart.alert = CartAlert.confirmPurchase(total: 275.89) }
    store.send(.cart(.alert(.presented(.confirmPurchase)))) {
      $0.cart.alert = nil
      $0.cart.orderStatus = .sending
    }
    let failure = EffectFailure(.connection, "connection reset")
    store.respond(to: CartTests.orderRequest, with: .failure(failure))
    store.receive(.cart(.orderFailed(failure))) {
      $0.cart.orderStatus = .failed("connection reset")
      $0.cart.alert = CartAlert.purchaseFailed(message: "connection reset")
    }
    store.send(.cart(.alert(.dismiss))) { $0.cart.alert = nil }
    #expect(store.state.products.rows == OnlineStoreFixtures.rows([2, 0, 1]))
  }

  @Test func aRowCannotChangeWhileTheOrderIsSent() {
    var initial = loaded
    initial.products.rows = OnlineStoreFixtures.rows([1, 0, 0])
    initial.cart.items = [CartItem(product: backpack, quantity: 1)]
    initial.cart.orderStatus = .sending
    let store = TestStore(initialState: initial) { OnlineStoreTestRoot() }
    store.send(plus(3)) {
      $0.cart.errorMessage = "An order is being sent; the cart cannot change until it is answered."
    }
    store.send(minus(1))
    #expect(store.state.products.rows == OnlineStoreFixtures.rows([1, 0, 0]))
  }
}
