/// Where the cart's last order stands.
public enum OrderStatus: Equatable, Hashable, Sendable, Codable {
  /// No order sent yet.
  case idle
  /// The order is in flight; the cart cannot change until it is answered.
  case sending
  /// The store accepted the order (with its id, when the server sent one).
  case placed(orderID: Int?)
  /// The order could not be sent, for the reason given.
  case failed(String)
}
