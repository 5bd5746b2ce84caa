import ComposableCore

/// What the inventory's screens show, published beside its state
/// (``PublishesView``): a detail screen names its item by id (the item lives
/// once, in ``Inventory/State/items``), and the view gives the item itself.
extension Inventory.State: PublishesView {
  /// One screen above the list as it is drawn.
  public struct Screen: Encodable, Equatable, Sendable {
    /// The screen's id on the stack, as `inventory.path[<id>]` names it.
    public let id: Int
    /// The item a detail screen shows; nil when it was deleted meanwhile,
    /// and for an edit screen, whose form holds its own copy.
    public let item: Item?
  }

  /// The inventory as its screens show it.
  public struct View: Encodable, Equatable, Sendable {
    /// The screens above the list, bottom first.
    public let path: [Screen]
    /// How many items, and how many units in all.
    public let itemCount: Int
    public let unitCount: Int
  }

  public var view: View {
    let screens = path.components.map { component in
      switch component.state {
      case .detail(let detail): Screen(id: component.id.rawValue, item: items[id: detail.itemID])
      case .edit: Screen(id: component.id.rawValue, item: nil)
      }
    }
    return View(path: screens, itemCount: items.count, unitCount: items.reduce(0) { $0 + $1.quantity })
  }
}
