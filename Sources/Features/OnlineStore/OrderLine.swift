/// One line of an ``OrderRequest``: `{"productId": 3, "quantity": 2}`.
public struct OrderLine: Equatable, Hashable, Sendable, Codable {
  public var productId: Int
  public var quantity: Int

  public init(productId: Int, quantity: Int) {
    self.productId = productId
    self.quantity = quantity
  }
}
