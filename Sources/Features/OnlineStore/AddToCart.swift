import ComposableCore

/// The "Add to Cart" counter of one product row: how many units the customer
/// wants. The count never goes below zero.
public struct AddToCart: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// Units of the product in the cart; 0 shows the "Add to Cart" button, more shows − n +.
    public var count: Int

    public init(count: Int = 0) {
      self.count = count
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
