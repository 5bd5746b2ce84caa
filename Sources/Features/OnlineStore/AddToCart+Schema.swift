import ActionLanguage
import ComposableCore

extension AddToCart.Action: DescribedAction {
  /// `products.rows[3].addToCart.plusButtonTapped`, `….minusButtonTapped`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("plusButtonTapped", "One more unit of the product in the cart"),
      ActionCase("minusButtonTapped", "One unit fewer, never below zero"),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .plusButtonTapped: "plusButtonTapped"
    case .minusButtonTapped: "minusButtonTapped"
    }
  }
}
