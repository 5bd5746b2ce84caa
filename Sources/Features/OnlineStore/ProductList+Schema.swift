import ActionLanguage
import ComposableCore

extension ProductList.Action: DescribedAction {
  /// `products.fetchProducts`, `products.rows[3].addToCart.plusButtonTapped`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.fetchProducts, "Fetches the live catalog, unless loading or loaded"),
    .init(.productsResponse(Product.samples), "The products arrived", sentBy: .httpEffect),
    .init(.productsFailed(.example), "The products could not be fetched; the rows shown stay", sentBy: .httpEffect),
    .init(.rows(.element(id: 1, action: .addToCart(.plusButtonTapped))), "An action of one product's row"),
    .init(.recovered, "Fetches again a catalog that was loading", sentBy: .recovery),
  ]
}
