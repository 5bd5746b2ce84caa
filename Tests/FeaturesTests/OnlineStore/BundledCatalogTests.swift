import ComposableCore
import FoundationEssentials
import Testing

@testable import Features

/// The catalog the store ships with is fakestoreapi.com's, exactly.
@Suite struct BundledCatalogTests {
  let catalog = Product.bundledCatalog

  @Test func itHoldsTheTwentyProductsInOrder() {
    #expect(catalog.map(\.id) == Array(1...20))
    #expect(Set(catalog.map(\.id)).count == 20)
    #expect(catalog.allSatisfy { $0.rating != nil && !$0.description.isEmpty && $0.price > 0 })
    #expect(catalog.allSatisfy { $0.image.hasPrefix("https://fakestoreapi.com/img/") && $0.image.hasSuffix(".jpg") })
  }

  @Test func categoriesAreTheAPIsOwn() {
    let byCategory = Dictionary(grouping: catalog, by: \.category).mapValues { $0.map(\.id) }
    #expect(byCategory["men's clothing"] == [1, 2, 3, 4])
    #expect(byCategory["jewelery"] == [5, 6, 7, 8])
    #expect(byCategory["electronics"] == [9, 10, 11, 12, 13, 14])
    #expect(byCategory["women's clothing"] == [15, 16, 17, 18, 19, 20])
  }

  @Test func productsAreVerbatim() {
    #expect(
      catalog[0]
        == Product(
          id: 1, title: "Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops", price: 109.95,
          description:
            "Your perfect pack for everyday use and walks in the forest. Stash your laptop (up to 15 inches) in the padded sleeve, your everyday",
          category: "men's clothing", image: "https://fakestoreapi.com/img/81fPKd-2AYL._AC_SL1500_.jpg",
          rating: ProductRating(rate: 3.9, count: 120)))
    // The API's titles end in spaces here and there, and use typographic characters.
    #expect(catalog[1].title == "Mens Casual Premium Slim Fit T-Shirts ")
    #expect(catalog[13].title.contains("(LC49HG90DMNXZA) \u{2013} Super Ultrawide Screen QLED "))
    #expect(catalog[8].description.contains("user\u{2019}s hardware"))
    #expect(catalog[9].description.contains("2.5\u{201D} hard drive"))
    // A checksum of every price, in cents.
    #expect(catalog.map { Int(($0.price * 100).rounded()) }.reduce(0, +) == 324_092)
    #expect(catalog[19].rating == ProductRating(rate: 3.6, count: 145))
  }

  @Test func itRoundTripsThroughTheAPIsJSONShape() throws {
    let data = try JSONEncoder().encode(catalog)
    #expect(try JSONDecoder().decode([Product].self, from: data) == catalog)
  }
}
