import ComposableCore

extension Inventory {
  /// The screens the inventory's stack holds above its list (seed 003's
  /// `Path`): an item's detail, and its edit screen.
  public struct Path: Reducer {
    public enum State: Equatable, Sendable, Codable {
      case detail(ItemDetail.State)
      case edit(ItemForm.State)

      var detail: ItemDetail.State? { if case .detail(let screen) = self { screen } else { nil } }
      var edit: ItemForm.State? { if case .edit(let screen) = self { screen } else { nil } }

      /// The item the screen is about.
      public var itemID: Int {
        switch self {
        case .detail(let detail): detail.itemID
        case .edit(let form): form.item.id
        }
      }
    }

    public enum Action: Equatable, Sendable, Codable {
      case detail(ItemDetail.Action)
      case edit(ItemForm.Action)

      var detail: ItemDetail.Action? { if case .detail(let action) = self { action } else { nil } }
      var edit: ItemForm.Action? { if case .edit(let action) = self { action } else { nil } }
    }

    public init() {}

    public var body: some Reducer<State, Action> {
      CaseScope(state: CasePath(State.detail, \.detail), action: CasePath(Action.detail, \.detail)) {
        ItemDetail()
      }
      CaseScope(state: CasePath(State.edit, \.edit), action: CasePath(Action.edit, \.edit)) { ItemForm() }
    }
  }
}
