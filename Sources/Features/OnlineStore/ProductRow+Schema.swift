import ActionLanguage
import ComposableCore

extension ProductRow.Action: DescribedAction {
  /// `products.rows[3].addToCart.…`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("addToCart", "An action of the row's add-to-cart counter", .unlabeled("action", AddToCart.Action.self))
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .addToCart: "addToCart"
    }
  }
}
