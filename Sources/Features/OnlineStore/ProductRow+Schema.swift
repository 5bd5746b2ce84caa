import ActionLanguage
import ComposableCore

extension ProductRow.Action: DescribedAction {
  /// `products.rows[3].addToCart.…`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.addToCart(.plusButtonTapped), "An action of the row's add-to-cart counter")
  ]
}
