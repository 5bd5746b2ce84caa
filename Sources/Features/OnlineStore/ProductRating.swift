/// A product's customer rating as fakestoreapi.com sends it: `{"rate": 3.9, "count": 120}`.
public struct ProductRating: Equatable, Hashable, Sendable, Codable {
  /// The average rating, 0 to 5.
  public var rate: Double
  /// How many customers rated the product.
  public var count: Int

  public init(rate: Double, count: Int) {
    self.rate = rate
    self.count = count
  }
}
