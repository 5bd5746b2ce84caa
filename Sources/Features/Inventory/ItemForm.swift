import ComposableCore

/// The form that adds or edits an ``Item`` (seed 003's `ItemFormFeature`):
/// a draft set by bindings, its errors kept in state as they change. Saving
/// and cancelling are the presenter's to handle, which keeps a valid draft.
public struct ItemForm: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// What the form shows and edits.
    public var item: Item
    /// Why the name cannot be saved, or `nil`.
    public var nameError: String?
    /// Why the quantity cannot be saved, or `nil`.
    public var quantityError: String?

    public init(item: Item) {
      self.item = item
      self.nameError = item.nameError
      self.quantityError = item.quantityError
    }

    /// Whether "Save" saves: the draft is valid.
    public var canSave: Bool { nameError == nil && quantityError == nil }
  }

  public enum Action: Equatable, Sendable, Codable, BindableAction {
    /// Sets a field of the draft: `name`, `quantity`, `notes`.
    case binding(BindingAction<State>)
    /// "Save": the presenter keeps the draft if it is valid.
    case saveButtonTapped
    /// "Cancel": the presenter closes the form.
    case cancelButtonTapped

    public var binding: BindingAction<State>? {
      if case .binding(let action) = self { action } else { nil }
    }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      if case .binding = action {
        state.nameError = state.item.nameError
        state.quantityError = state.item.quantityError
      }
      return .none
    }
  }
}

extension ItemForm.State: BindableState {
  public static var bindableFields: [BindableField<Self>] {
    [
      BindableField("name", \.item.name, "Sets the item's name"),
      BindableField("quantity", \.item.quantity, "Sets how many there are"),
      BindableField("notes", \.item.notes, "Sets the notes"),
    ]
  }
}
