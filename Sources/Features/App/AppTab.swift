/// The tabs of the app, one per hosted feature (the cart is the online store's
/// sheet in the seed; here it is a tab of its own so it can be watched).
public enum AppTab: String, Hashable, Sendable, Codable, CaseIterable {
  case counter
  case dice
  case products
  case cart
  case profile
  case bmi
  case search
  case parent
  case inventory
}
