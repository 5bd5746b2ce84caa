/// What the store answers to an order, as far as the cart reads it: the new
/// cart's `id` (fakestoreapi.com echoes the cart with an id). Any other field is
/// ignored, and a body without an id still counts as an accepted order.
public struct OrderReceipt: Equatable, Hashable, Sendable, Codable {
  public var id: Int

  public init(id: Int) {
    self.id = id
  }
}
