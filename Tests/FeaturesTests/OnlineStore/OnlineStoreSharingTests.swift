import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import Testing

@testable import Features

/// The online store as the app's root composes it: the rows' counters are
/// the cart's quantities and the cart's catalog is the list's rows, each
/// held once and shared (``Shared``), so the stories below change only the
/// cart, and a counter's tap is one change in the state.
@Suite struct OnlineStoreSharingTests {
  let backpack = Product.samples[0]
  let jacket = Product.samples[2]

  /// Products loaded, nothing in the cart.
  var loaded: AppFeature.State {
    AppFeature.State(products: ProductList.State(status: .loaded, rows: OnlineStoreFixtures.rows()))
  }

  func plus(_ id: Product.ID) -> AppFeature.Action {
    .products(.rows(.element(id: id, action: .addToCart(.plusButtonTapped))))
  }

  func minus(_ id: Product.ID) -> AppFeature.Action {
    .products(.rows(.element(id: id, action: .addToCart(.minusButtonTapped))))
  }

  @Test func theCartSellsTheListsProductsBundledBeforeAnyFetch() {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    #expect(store.state.products.products == Product.bundledCatalog)
    store.send(.cart(.addItem(3))) { $0.cart.items = [CartItem(product: Product.bundledCatalog[2], quantity: 1)] }
    store.send(plus(3)) { $0.cart.items[id: 3]?.quantity = 2 }
  }

  @Test func liveProductsAreWhatTheCartSellsOnceLoaded() {
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    store.send(.products(.fetchProducts)) { $0.products.status = .loading }
    store.respond(
      to: OnlineStoreFixtures.productsRequest, with: OnlineStoreFixtures.ok(OnlineStoreFixtures.productsJSON))
    store.receive(.products(.productsResponse(Product.samples))) {
      $0.products.status = .loaded
      $0.products.rows = OnlineStoreFixtures.rows()
    }
    store.send(.cart(.addItem(1))) { $0.cart.items = [CartItem(product: self.backpack, quantity: 1)] }
    store.send(.cart(.addItem(20))) { $0.cart.errorMessage = "Product 20 is not in the catalog." }
  }

  @Test func aRowsCounterChangesTheCart() {
    let store = TestStore(initialState: loaded) { AppFeature() }
    store.send(plus(1)) { $0.cart.items = [CartItem(product: self.backpack, quantity: 1)] }
    store.send(plus(1)) { $0.cart.items[id: 1]?.quantity = 2 }
    store.send(plus(3)) { $0.cart.items.append(CartItem(product: self.jacket, quantity: 1)) }
    #expect(store.state.cart.totalPrice == 275.89)
    store.send(minus(1)) { $0.cart.items[id: 1]?.quantity = 1 }
    store.send(minus(1)) { $0.cart.items.remove(id: 1) }
    // At zero the counter stays at zero: nothing changes.
    store.send(minus(1))
  }

  /// A row shows what the cart holds, whoever changed it: the cart's own
  /// actions, a placed order emptying it.
  @Test func aCounterStartsFromTheCartsQuantity() {
    let store = TestStore(initialState: loaded) { AppFeature() }
    store.send(.cart(.addItem(3))) { $0.cart.items = [CartItem(product: self.jacket, quantity: 1)] }
    store.send(.cart(.incrementItem(3))) { $0.cart.items[id: 3]?.quantity = 2 }
    store.send(plus(3)) { $0.cart.items[id: 3]?.quantity = 3 }
    store.send(.cart(.removeItem(3))) { $0.cart.items = [] }
    store.send(plus(3)) { $0.cart.items = [CartItem(product: self.jacket, quantity: 1)] }
  }

  @Test func aRowCannotChangeTheCartWhileTheOrderIsSent() {
    var initial = loaded
    initial.cart.items = [CartItem(product: backpack, quantity: 1)]
    initial.cart.orderStatus = .sending
    let store = TestStore(initialState: initial) { AppFeature() }
    store.send(plus(3)) {
      $0.cart.errorMessage = "An order is being sent; the cart cannot change until it is answered."
    }
    store.send(minus(1))
    #expect(store.state.cart.items[id: 1]?.quantity == 1)
  }

  /// What is shared is held once: a counter's tap changes the cart's lines
  /// and its total (and the view derived from them), and nothing of the row;
  /// the rows and the cart hold no copy of what they share in the state's JSON.
  @Test func aTapIsOneChangeInTheStatesJSON() throws {
    var state = loaded
    state.cart.items = [CartItem(product: jacket, quantity: 1)]
    let before = try CanonicalJSON.value(of: state)
    let store = Store(initialState: state, reducer: AppFeature(), executor: NoRequests())
    store.send(plus(3))
    let after = try CanonicalJSON.value(of: store.state)
    #expect(
      JSONPatch.diff(from: before, to: after).map(\.path.description) == [
        "/cart/items/0/quantity", "/cart/items/0/view/subtotal", "/cart/items/0/view/subtotalText",
        "/cart/totalPrice", "/cart/view/itemCount", "/cart/view/quantities/3", "/cart/view/totalText",
      ])
    guard case .object(let members) = after, case .object(let cart)? = members["cart"],
      case .object(let products)? = members["products"], case .array(let rows)? = products["rows"],
      case .object(let row)? = rows.first
    else {
      Issue.record("the state's JSON has the store's parts")
      return
    }
    #expect(cart["catalog"] == nil)
    #expect(row["addToCart"] == .object([:]))
  }

  /// An executor for a store whose actions here start no requests.
  final class NoRequests: EffectExecutor {
    func start(_ request: EffectRequest, id: EffectID) { Issue.record("started \(request)") }
    func cancel(_ id: EffectID) {}
  }
}
