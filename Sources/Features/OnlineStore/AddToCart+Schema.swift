import ActionLanguage
import ComposableCore

extension AddToCart.Action: DescribedAction {
  /// `products.rows[3].addToCart.plusButtonTapped`, `….minusButtonTapped`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.plusButtonTapped, "One more unit of the product in the cart"),
    .init(.minusButtonTapped, "One unit fewer, never below zero"),
  ]
}
