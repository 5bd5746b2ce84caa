import ComposableCore

@testable import Features

/// A test-only host of the product list and the cart, composed as the App root
/// will compose them: both Scopes, then ``OnlineStoreCoordinator``.
struct OnlineStoreTestRoot: Reducer {
  struct State: Equatable, Sendable, Codable {
    var products = ProductList.State()
    var cart = Cart.State()
  }

  enum Action: Equatable, Sendable, Codable {
    case products(ProductList.Action)
    case cart(Cart.Action)

    var products: ProductList.Action? { if case .products(let action) = self { action } else { nil } }
    var cart: Cart.Action? { if case .cart(let action) = self { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.products, action: CasePath(Action.products, \.products)) { ProductList() }
    Scope(state: \.cart, action: CasePath(Action.cart, \.cart)) { Cart() }
    OnlineStoreCoordinator(
      products: \.products, cart: \.cart,
      productsAction: CasePath(Action.products, \.products), cartAction: CasePath(Action.cart, \.cart))
  }
}
