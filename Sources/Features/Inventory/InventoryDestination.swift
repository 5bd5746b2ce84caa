import ComposableCore

extension Inventory {
  /// What the inventory presents over its list: a form adding an item, or
  /// one editing an item (tree navigation), an enum of features scoped case
  /// by case.
  public struct Destination: Reducer {
    /// Identified by its case and, when editing, the item: presenting
    /// another is a new presentation, which cancels what the old one started.
    public enum State: Equatable, Sendable, Codable, Identifiable {
      case addItem(ItemForm.State)
      case editItem(ItemForm.State)

      public var id: String {
        switch self {
        case .addItem: "addItem"
        case .editItem(let form): "editItem \(form.item.id)"
        }
      }

      var addItem: ItemForm.State? { if case .addItem(let form) = self { form } else { nil } }
      var editItem: ItemForm.State? { if case .editItem(let form) = self { form } else { nil } }
    }

    public enum Action: Equatable, Sendable, Codable {
      case addItem(ItemForm.Action)
      case editItem(ItemForm.Action)

      var addItem: ItemForm.Action? { if case .addItem(let action) = self { action } else { nil } }
      var editItem: ItemForm.Action? { if case .editItem(let action) = self { action } else { nil } }
    }

    public init() {}

    public var body: some Reducer<State, Action> {
      CaseScope(state: CasePath(State.addItem, \.addItem), action: CasePath(Action.addItem, \.addItem)) {
        ItemForm()
      }
      CaseScope(state: CasePath(State.editItem, \.editItem), action: CasePath(Action.editItem, \.editItem)) {
        ItemForm()
      }
    }
  }
}
