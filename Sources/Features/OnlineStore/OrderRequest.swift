/// The body of `POST {storeAPIBaseURL}/carts`, fakestoreapi.com's documented
/// cart shape: `{"date": …, "products": [{"productId": 1, "quantity": 2}], "userId": 1}`.
public struct OrderRequest: Equatable, Hashable, Sendable, Codable {
  /// The customer placing the order.
  public var userId: Int
  /// When the order was placed, ISO 8601 in UTC with milliseconds, e.g.
  /// "2020-03-02T00:00:00.000Z" (the format of the API's own carts).
  public var date: String
  /// The cart's lines, in cart order.
  public var products: [OrderLine]

  public init(userId: Int, date: String, products: [OrderLine]) {
    self.userId = userId
    self.date = date
    self.products = products
  }
}
