import ComposableCore

extension IdentifiedAction: DescribedValue where ID: DescribedValue, Action: DescribedAction {
  /// An element's action, addressed by id in a path: `products.rows[3].addToCart.plusButtonTapped`.
  public static var valueSchema: ValueSchema { .identified(Self.self) }
}
