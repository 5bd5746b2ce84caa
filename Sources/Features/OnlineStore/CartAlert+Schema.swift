import ActionLanguage
import ComposableCore

extension CartAlert.Action: DescribedAction {
  /// `cart.alert.confirmPurchase`, `cart.alert.cancelPurchase`, `cart.alert.dismiss`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("confirmPurchase", "\"Pay\" on the confirmation: sends the order"),
      ActionCase("cancelPurchase", "\"Cancel\" on the confirmation: keeps shopping"),
      ActionCase("dismiss", "\"Done\" on the success, failure or order-not-confirmed alert"),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .confirmPurchase: "confirmPurchase"
    case .cancelPurchase: "cancelPurchase"
    case .dismiss: "dismiss"
    }
  }
}
