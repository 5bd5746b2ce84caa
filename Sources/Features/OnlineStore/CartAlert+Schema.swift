import ActionLanguage
import ComposableCore

extension CartAlert.Action: DescribedAction {
  /// `cart.alert.presented.confirmPurchase`, `cart.alert.presented.cancelPurchase`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("confirmPurchase", "\"Pay\" on the confirmation: sends the order"),
      ActionCase("cancelPurchase", "\"Cancel\" on the confirmation: keeps shopping"),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .confirmPurchase: "confirmPurchase"
    case .cancelPurchase: "cancelPurchase"
    }
  }
}
