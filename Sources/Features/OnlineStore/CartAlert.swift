import ComposableCore

/// The alerts the cart presents (``Cart/State/alert``), with seed 001's
/// texts: asking to confirm a purchase, then telling how the order went.
/// Each is an `AlertState` a client draws from the state alone.
public enum CartAlert {
  /// What the alerts' buttons send. "Done" sends nothing: it only closes
  /// the alert (`cart.alert.dismiss`).
  public enum Action: Equatable, Hashable, Sendable, Codable {
    /// "Pay $…" on the confirmation: send the order.
    case confirmPurchase
    /// "Cancel" on the confirmation: keep shopping.
    case cancelPurchase
  }

  /// "Confirm your purchase" of `total` dollars: "Pay $…" sends
  /// ``Action/confirmPurchase``, "Cancel" ``Action/cancelPurchase``.
  public static func confirmPurchase(total: Double) -> AlertState<Action> {
    let price = StorePriceFormat.dollars(total)
    return AlertState(
      title: "Confirm your purchase", message: "Do you want to proceed with your purchase of \(price)?",
      buttons: [
        ButtonState(action: .confirmPurchase, label: "Pay \(price)"),
        ButtonState(role: .cancel, action: .cancelPurchase, label: "Cancel"),
      ])
  }

  /// "Thank you!": the store accepted the order (its id, when the server sent one).
  public static func purchaseSucceeded(orderID: Int?) -> AlertState<Action> {
    let message = orderID.map { "Your order #\($0) is in process." } ?? "Your order is in process."
    return AlertState(title: "Thank you!", message: message, buttons: [done])
  }

  /// "Oops!": the order could not be sent, for the reason given; the cart is kept.
  public static func purchaseFailed(message: String) -> AlertState<Action> {
    AlertState(title: "Oops!", message: "Unable to send order, try again later. (\(message))", buttons: [done])
  }

  /// "Order not confirmed": the order's answer was lost (storedaemon
  /// restarted, or its network worker ended, while the order was being
  /// sent, or the store did not answer in time), so it may or may not have
  /// been placed; `message` says which and what to do. The cart is kept.
  public static func purchaseInterrupted(message: String) -> AlertState<Action> {
    AlertState(title: "Order not confirmed", message: message, buttons: [done])
  }

  /// "Done": closes the alert.
  static let done = ButtonState<Action>(role: .cancel, label: "Done")
}

/// The cart's alert as a storedaemon from before `AlertState` kept it (the
/// case, not the texts), read from a state saved then and turned into the
/// alert it stood for.
enum LegacyCartAlert: Decodable {
  case confirmPurchase(total: Double)
  case purchaseSucceeded(orderID: Int?)
  case purchaseFailed(message: String)
  case purchaseInterrupted(message: String?)

  var alert: AlertState<CartAlert.Action> {
    switch self {
    case .confirmPurchase(let total): CartAlert.confirmPurchase(total: total)
    case .purchaseSucceeded(let orderID): CartAlert.purchaseSucceeded(orderID: orderID)
    case .purchaseFailed(let message): CartAlert.purchaseFailed(message: message)
    case .purchaseInterrupted(let message):
      CartAlert.purchaseInterrupted(message: message ?? Cart.interruptedOrderMessage)
    }
  }
}
