import ComposableCore

/// One product of the list with its add-to-cart counter; an element of
/// ``ProductList``'s rows, identified by the product's id.
public struct ProductRow: Reducer {
  public struct State: Equatable, Sendable, Codable, Identifiable {
    public var product: Product
    public var addToCart: AddToCart.State

    /// The row of `product`, whose counter shows the cart's quantity of it
    /// (shared), unless `count` gives it one of its own (a test of the row alone).
    public init(product: Product, count: Int? = nil) {
      self.product = product
      self.addToCart = count.map(AddToCart.State.init(count:)) ?? AddToCart.State()
    }

    /// The product's id: rows and cart lines of one product share it.
    public var id: Product.ID { product.id }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// An action of the row's counter.
    case addToCart(AddToCart.Action)

    var addToCart: AddToCart.Action? { if case .addToCart(let action) = self { action } else { nil } }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.addToCart, action: CasePath(Action.addToCart, \.addToCart)) {
      AddToCart()
    }
  }
}
