import ActionLanguage
import ComposableCore

extension CartAlert.Action: DescribedAction {
  /// `cart.alert.presented.confirmPurchase`, `cart.alert.presented.cancelPurchase`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.confirmPurchase, "\"Pay\" on the confirmation: sends the order"),
    .init(.cancelPurchase, "\"Cancel\" on the confirmation: keeps shopping"),
  ]
}
