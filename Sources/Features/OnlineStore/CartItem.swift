/// One line of the cart: a product and how many units of it, identified by the
/// product's id (so a product has at most one line).
public struct CartItem: Equatable, Hashable, Sendable, Codable, Identifiable {
  /// The product as the catalog described it when it was added.
  public var product: Product
  /// Units ordered; always at least 1 (a line at 0 is removed).
  public var quantity: Int

  public init(product: Product, quantity: Int) {
    self.product = product
    self.quantity = quantity
  }

  public var id: Product.ID { product.id }

  /// `price × quantity`, in dollars.
  public var subtotal: Double { product.price * Double(quantity) }
}
