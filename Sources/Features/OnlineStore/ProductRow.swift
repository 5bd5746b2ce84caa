import ComposableCore

/// One product of the list with its add-to-cart counter; an element of
/// ``ProductList``'s rows, identified by the product's id.
public struct ProductRow: Reducer {
  public struct State: Equatable, Sendable, Codable, Identifiable {
    public var product: Product
    public var addToCart: AddToCart.State

    public init(product: Product, count: Int = 0) {
      self.product = product
      self.addToCart = AddToCart.State(count: count)
    }

    /// The product's id: rows and cart lines of one product share it.
    public var id: Product.ID { product.id }

    /// Units of this product the customer has put in the cart.
    public var count: Int {
      get { addToCart.count }
      set { addToCart.count = newValue }
    }
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
