import ComposableCore

/// An item's screen on the inventory's stack (seed 003's `DetailFeature`).
///
/// It names its item by id rather than holding a copy: the item lives once,
/// in the inventory's ``Inventory/State/items``, so an edit shows on every
/// screen at once and changes the state in one place (a client draws the
/// screen from `inventory.items` and this id).
public struct ItemDetail: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var itemID: Int

    public init(itemID: Int) { self.itemID = itemID }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// "Edit": the inventory pushes the item's edit screen.
    case editButtonTapped
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
  }
}
