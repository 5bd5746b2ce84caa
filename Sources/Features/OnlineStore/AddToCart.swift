import ComposableCore

/// The "Add to Cart" counter of one product row: how many units the customer
/// wants. The count never goes below zero.
///
/// The count is the cart's quantity of the product, shared (``Shared``):
/// the counter reads and changes it as its own, and the app's root fills it
/// from the cart for each tap and writes the change back, so the quantity
/// lives once, in the cart (`cart.items`), and is not part of the row's
/// JSON.
public struct AddToCart: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// Units of the product in the cart; 0 shows the "Add to Cart" button, more shows − n +.
    @Shared public var count: Int

    /// A counter holding its own count (a test of the counter alone).
    public init(count: Int) {
      _count = Shared(wrappedValue: count)
    }

    /// A row's counter, whose count is the cart's.
    public init() {
      _count = Shared()
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// "+" (or "Add to Cart" at zero): one more unit.
    case plusButtonTapped
    /// "−": one unit fewer; does nothing at zero.
    case minusButtonTapped
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .plusButtonTapped:
        state.count += 1
        return .none

      case .minusButtonTapped:
        guard state.count > 0 else { return .none }
        state.count -= 1
        return .none
      }
    }
  }
}
