import ComposableCore

/// Seed 003's inventory: a list of items, a form presented over it to add
/// or edit one (tree navigation, ``Destination``), and a stack from the list
/// to an item's detail and on to its edit screen (``Path``).
///
/// Items get their ids from ``State/nextItemID``, in order, never reused.
/// An action that names an item that is not there (`editButtonTapped 9`, a
/// pushed screen or a saved form of an item that was deleted or never
/// added) is not applied, and its sender hears why. Deleting an item closes whatever
/// shows it: the form editing it, and the stack's screens from the first
/// that shows it up. Saving a form keeps its draft only if it is valid;
/// otherwise the form stays, showing why.
public struct Inventory: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var items: IdentifiedArrayOf<Item>
    /// The id the next added item gets.
    public var nextItemID: Int
    /// The form presented over the list, if any.
    public var destination: Destination.State?
    /// The screens above the list: details and edit screens.
    public var path: StackState<Path.State>

    public init(
      items: IdentifiedArrayOf<Item> = [], nextItemID: Int? = nil, destination: Destination.State? = nil,
      path: StackState<Path.State> = StackState()
    ) {
      self.items = items
      self.nextItemID = nextItemID ?? ((items.map(\.id).max() ?? 0) + 1)
      self.destination = destination
      self.path = path
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// "Add": presents an empty form.
    case addButtonTapped
    /// An item's "Edit" in the list: presents the form over the list.
    case editButtonTapped(id: Int)
    /// An item's "Delete".
    case deleteButtonTapped(id: Int)
    /// Tapping an item in the list: pushes its detail screen.
    case detailButtonTapped(id: Int)
    /// An action of the presented form, or its dismissal.
    case destination(PresentationAction<Destination.Action>)
    /// An action of a screen on the stack, or going back.
    case path(StackAction<Path.State, Path.Action>)

    var destination: PresentationAction<Destination.Action>? {
      if case .destination(let action) = self { action } else { nil }
    }
    var path: StackAction<Path.State, Path.Action>? { if case .path(let action) = self { action } else { nil } }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addItem(ItemForm.State(item: Item(id: state.nextItemID)))
        return .none

      case .editButtonTapped(let id):
        guard let item = state.items[id: id] else { return missing(id, action) }
        state.destination = .editItem(ItemForm.State(item: item))
        return .none

      case .deleteButtonTapped(let id):
        guard state.items.remove(id: id) != nil else { return missing(id, action) }
        if case .editItem(let form) = state.destination, form.item.id == id { state.destination = nil }
        if let first = state.path.components.first(where: { $0.state.itemID == id }) {
          state.path.pop(from: first.id)
        }
        return .none

      case .detailButtonTapped(let id):
        guard state.items.contains(id: id) else { return missing(id, action) }
        state.path.append(.detail(ItemDetail.State(itemID: id)))
        return .none

      case .destination(.presented(.addItem(.saveButtonTapped))):
        guard case .addItem(let form) = state.destination, form.canSave else { return .none }
        // The new item takes the next id whatever the form was opened with.
        var item = form.item
        item.id = state.nextItemID
        state.items.append(item)
        state.nextItemID += 1
        state.destination = nil
        return .none

      case .destination(.presented(.editItem(.saveButtonTapped))):
        guard case .editItem(let form) = state.destination, form.canSave else { return .none }
        guard state.items.contains(id: form.item.id) else { return missing(form.item.id, action) }
        state.items[id: form.item.id] = form.item
        state.destination = nil
        return .none

      case .destination(.presented(.addItem(.cancelButtonTapped))),
        .destination(.presented(.editItem(.cancelButtonTapped))):
        state.destination = nil
        return .none

      case .path(.element(let id, .detail(.editButtonTapped))):
        guard case .detail(let detail)? = state.path[id: id], let item = state.items[id: detail.itemID] else {
          return .none
        }
        state.path.append(.edit(ItemForm.State(item: item)))
        return .none

      case .path(.element(let id, .edit(.saveButtonTapped))):
        guard case .edit(let form)? = state.path[id: id], form.canSave else { return .none }
        guard state.items.contains(id: form.item.id) else { return missing(form.item.id, action) }
        state.items[id: form.item.id] = form.item
        state.path.pop(from: id)
        return .none

      case .path(.push(_, let screen)):
        // A screen pushed from outside (a raw `push`) must show an item of the list.
        guard state.items.contains(id: screen.itemID) else { return missing(screen.itemID, action) }
        return .none

      case .path(.element(let id, .edit(.cancelButtonTapped))):
        state.path.pop(from: id)
        return .none

      case .destination, .path:
        return .none
      }
    }
    .ifLet(\.destination, action: CasePath(Action.destination, \.destination)) { Destination() }
    .forEach(\.path, action: CasePath(Action.path, \.path)) { Path() }
  }

  /// Drops an action naming an item that is not in the list, saying so.
  private func missing(_ id: Int, _ action: Action) -> Effect<Action> {
    reportDroppedAction("items has no item with id \(id)", action: action, location: SourceLocation())
    return .none
  }
}
