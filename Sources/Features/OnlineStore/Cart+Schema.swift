import ActionLanguage
import ComposableCore

extension Cart.Action: DescribedAction {
  /// `cart.addItem 3`, `cart.payButtonTapped`, `cart.alert.presented.confirmPurchase`, `cart.alert.dismiss`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.addItem(1), "Adds one unit of the catalog's product with this id"),
    .init(.incrementItem(1), "One more unit of the product with this id in the cart"),
    .init(.decrementItem(1), "One unit fewer of the product with this id; the line goes at zero"),
    .init(.removeItem(1), "Removes the line of the product with this id"),
    .init(.payButtonTapped, "Asks to confirm paying the total"),
    .init(.alert(.dismiss), "A button of the alert on screen, or closing it"),
    .init(.orderPlaced(orderID: 1), "The store accepted the order", sentBy: .httpEffect),
    .init(.orderFailed(.example), "The order could not be sent", sentBy: .httpEffect),
    .init(.recovered, "Fails an order that was being sent, without sending it again", sentBy: .recovery),
  ]
}
