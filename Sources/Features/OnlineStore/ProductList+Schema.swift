import ActionLanguage
import ComposableCore

extension ProductList.Action: DescribedAction {
  /// `products.fetchProducts`, `products.rows[3].addToCart.plusButtonTapped`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("fetchProducts", "Fetches the live catalog, unless loading or loaded"),
      ActionCase(
        "productsResponse", "The products arrived", sentBy: .httpEffect,
        .unlabeled("products", .json([Product].self, sample: Product.samples))),
      ActionCase(
        "productsFailed", "The products could not be fetched; the rows shown stay", sentBy: .httpEffect,
        .unlabeled("failure", EffectFailure.self)),
      ActionCase(
        "rows", "An action of one product's row",
        .unlabeled("row", IdentifiedAction<Product.ID, ProductRow.Action>.self)),
      ActionCase("recovered", "Fetches again a catalog that was loading", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .fetchProducts: "fetchProducts"
    case .productsResponse: "productsResponse"
    case .productsFailed: "productsFailed"
    case .rows: "rows"
    case .recovered: "recovered"
    }
  }
}
