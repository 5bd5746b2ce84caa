/// The alert the cart shows, as state: asking to confirm a purchase, or
/// telling how the order went. `nil` in ``Cart/State/alert`` means no alert.
public enum CartAlert: Equatable, Hashable, Sendable, Codable {
  /// "Confirm your purchase" of `total` dollars: Pay → ``Action/confirmPurchase``,
  /// Cancel → ``Action/cancelPurchase``.
  case confirmPurchase(total: Double)
  /// "Thank you!": the store accepted the order (its id, when the server sent
  /// one). Done → ``Action/dismiss``.
  case purchaseSucceeded(orderID: Int?)
  /// "Oops!": the order could not be sent, for the reason given; the cart is
  /// kept. Done → ``Action/dismiss``.
  case purchaseFailed(message: String)
  /// "Order not confirmed": the order's answer was lost (storedaemon
  /// restarted, or its network worker ended, while the order was being sent,
  /// or the store did not answer in time), so it may or may not have been
  /// placed; `message` says which and what to do. The cart is kept.
  /// Done → ``Action/dismiss``.
  ///
  /// `message` is `nil` only in a state kept by a storedaemon older than it,
  /// which showed this alert only after a restart:
  /// ``Cart/interruptedOrderMessage``.
  case purchaseInterrupted(message: String?)

  /// The alert's buttons. Every button also closes the alert.
  public enum Action: Equatable, Hashable, Sendable, Codable {
    /// "Pay $…" on the confirmation: send the order.
    case confirmPurchase
    /// "Cancel" on the confirmation: keep shopping.
    case cancelPurchase
    /// "Done" on the success, failure or order-not-confirmed alert.
    case dismiss
  }

  /// The alert's title.
  public var title: String {
    switch self {
    case .confirmPurchase: "Confirm your purchase"
    case .purchaseSucceeded: "Thank you!"
    case .purchaseFailed: "Oops!"
    case .purchaseInterrupted: "Order not confirmed"
    }
  }

  /// The alert's message.
  public var message: String {
    switch self {
    case .confirmPurchase(let total):
      "Do you want to proceed with your purchase of \(StorePriceFormat.dollars(total))?"
    case .purchaseSucceeded(let orderID?):
      "Your order #\(orderID) is in process."
    case .purchaseSucceeded(nil):
      "Your order is in process."
    case .purchaseFailed(let message):
      "Unable to send order, try again later. (\(message))"
    case .purchaseInterrupted(let message):
      message ?? Cart.interruptedOrderMessage
    }
  }
}
