/// A product the online store sells, exactly as fakestoreapi.com's
/// `GET /products` describes it (the JSON keys are the field names).
public struct Product: Equatable, Hashable, Sendable, Codable, Identifiable {
  /// The API's product id; also the id of the product's row and cart line.
  public var id: Int
  public var title: String
  /// The unit price in dollars.
  public var price: Double
  public var description: String
  public var category: String
  /// The URL of the product's picture.
  public var image: String
  /// The customers' rating; optional, since the store does not depend on it.
  public var rating: ProductRating?

  public init(
    id: Int, title: String, price: Double, description: String, category: String, image: String,
    rating: ProductRating? = nil
  ) {
    self.id = id
    self.title = title
    self.price = price
    self.description = description
    self.category = category
    self.image = image
    self.rating = rating
  }

  /// The unit price for a person to read, e.g. "$22.30".
  public var priceText: String { StorePriceFormat.dollars(price) }
}

extension Product {
  /// Three of fakestoreapi.com's products (ids 1, 2, 3), abridged, for previews
  /// and tests: unlike ``bundledCatalog``'s, their descriptions are shortened,
  /// so a catalog of samples is told apart from the bundled one at a glance.
  public static let samples: [Product] = [
    Product(
      id: 1, title: "Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops", price: 109.95,
      description: "Your perfect pack for everyday use and walks in the forest.", category: "men's clothing",
      image: "https://fakestoreapi.com/img/81fPKd-2AYL._AC_SL1500_.jpg", rating: ProductRating(rate: 3.9, count: 120)),
    Product(
      id: 2, title: "Mens Casual Premium Slim Fit T-Shirts", price: 22.3,
      description: "Slim-fitting style, contrast raglan long sleeve.", category: "men's clothing",
      image: "https://fakestoreapi.com/img/71-3HjGNDUL._AC_SY879._SX._UX._SY._UY_.jpg",
      rating: ProductRating(rate: 4.1, count: 259)),
    Product(
      id: 3, title: "Mens Cotton Jacket", price: 55.99,
      description: "Great outerwear jackets for Spring, Autumn and Winter.", category: "men's clothing",
      image: "https://fakestoreapi.com/img/71li-ujtlUL._AC_UX679_.jpg", rating: ProductRating(rate: 4.7, count: 500)),
  ]
}
