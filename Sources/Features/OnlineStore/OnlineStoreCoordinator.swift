import ComposableCore

/// Keeps the online store's ``ProductList`` and ``Cart`` in step, for the root
/// that hosts both. Include it in the root's body **after** the two `Scope`s,
/// so that it sees what the children did:
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.products, action: CasePath(Action.products, \.products)) { ProductList() }
///   Scope(state: \.cart, action: CasePath(Action.cart, \.cart)) { Cart() }
///   OnlineStoreCoordinator(
///     products: \.products, cart: \.cart,
///     productsAction: CasePath(Action.products, \.products), cartAction: CasePath(Action.cart, \.cart))
/// }
/// ```
///
/// Both start from the bundled catalog (their states' defaults). The cart is the
/// source of truth for quantities:
/// - when the live products load, the cart's ``Cart/State/catalog`` becomes the
///   loaded products, and the new rows' counters show the cart's quantities (a
///   failed fetch changes neither);
/// - a row's counter changed (+ / −): the cart's line for that product takes the
///   counter's value (0 removes it);
/// - after any cart action (`addItem`, `removeItem`, a placed order that empties
///   the cart, ...) every row's counter shows the cart's quantity of its product.
///
/// A counter change the cart refuses (while an order is in flight) is undone on
/// the row. The coordinator returns no effects. It is generic only over the
/// host's `State` and `Action`, which it reaches through the key paths and case
/// paths it is given.
public struct OnlineStoreCoordinator<State, Action: Sendable>: Reducer {
  let products: WritableKeyPath<State, ProductList.State>
  let cart: WritableKeyPath<State, Cart.State>
  let productsAction: CasePath<Action, ProductList.Action>
  let cartAction: CasePath<Action, Cart.Action>

  /// Coordinates the product list at `products` and the cart at `cart`, whose
  /// actions arrive through `productsAction` and `cartAction`.
  public init(
    products: WritableKeyPath<State, ProductList.State>,
    cart: WritableKeyPath<State, Cart.State>,
    productsAction: CasePath<Action, ProductList.Action>,
    cartAction: CasePath<Action, Cart.Action>
  ) {
    self.products = products
    self.cart = cart
    self.productsAction = productsAction
    self.cartAction = cartAction
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if let productsAction = productsAction.extract(action) {
      switch productsAction {
      case .productsResponse:
        state[keyPath: cart].catalog = IdentifiedArrayOf(uniqueElements: state[keyPath: products].products)
      case .rows(.element(let id, _)):
        if let row = state[keyPath: products].rows[id: id] {
          state[keyPath: cart].setQuantity(row.count, of: row.product)
        }
        // Only this row and this product's cart line changed; every other
        // row already shows the cart. Syncing just this one keeps a counter
        // tap as cheap with 100,000 products as with 20.
        showCartQuantity(of: id, in: &state)
        return .none
      case .fetchProducts, .productsFailed, .recovered:
        return .none
      }
      showCartQuantities(in: &state)
    } else if cartAction.extract(action) != nil {
      showCartQuantities(in: &state)
    }
    return .none
  }

  /// Sets the counter of row `id` to the cart's quantity of its product (0
  /// when absent): the row shows a quantity the cart refused as it was.
  private func showCartQuantity(of id: Product.ID, in state: inout State) {
    let quantity = state[keyPath: cart].items[id: id]?.quantity ?? 0
    if state[keyPath: products].rows[id: id]?.count != quantity {
      state[keyPath: products].rows[id: id]?.count = quantity
    }
  }

  /// Sets every row's counter to the cart's quantity of its product (0 when absent).
  private func showCartQuantities(in state: inout State) {
    let items = state[keyPath: cart].items
    for id in state[keyPath: products].rows.ids {
      let quantity = items[id: id]?.quantity ?? 0
      if state[keyPath: products].rows[id: id]?.count != quantity {
        state[keyPath: products].rows[id: id]?.count = quantity
      }
    }
  }
}
