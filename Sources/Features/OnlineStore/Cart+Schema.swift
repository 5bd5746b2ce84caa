import ActionLanguage
import ComposableCore

extension Cart.Action: DescribedAction {
  /// `cart.addItem 3`, `cart.payButtonTapped`, `cart.alert.presented.confirmPurchase`, `cart.alert.dismiss`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("addItem", "Adds one unit of the catalog's product", .unlabeled("productID", Product.ID.self)),
      ActionCase("incrementItem", "One more unit of a product in the cart", .unlabeled("productID", Product.ID.self)),
      ActionCase("decrementItem", "One unit fewer; the line goes at zero", .unlabeled("productID", Product.ID.self)),
      ActionCase("removeItem", "Removes a product's line", .unlabeled("productID", Product.ID.self)),
      ActionCase("payButtonTapped", "Asks to confirm paying the total"),
      ActionCase(
        "alert", "A button of the alert on screen, or closing it",
        .unlabeled("action", PresentationAction<CartAlert.Action>.self)),
      ActionCase("orderPlaced", "The store accepted the order", sentBy: .httpEffect, .labeled("orderID", Int?.self)),
      ActionCase(
        "orderFailed", "The order could not be sent", sentBy: .httpEffect, .unlabeled("failure", EffectFailure.self)),
      ActionCase("recovered", "Fails an order that was being sent, without sending it again", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .addItem: "addItem"
    case .incrementItem: "incrementItem"
    case .decrementItem: "decrementItem"
    case .removeItem: "removeItem"
    case .payButtonTapped: "payButtonTapped"
    case .alert: "alert"
    case .orderPlaced: "orderPlaced"
    case .orderFailed: "orderFailed"
    case .recovered: "recovered"
    }
  }
}
