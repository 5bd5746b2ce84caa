import ActionLanguage
import ComposableCore

extension Inventory.Action: DescribedAction {
  /// `inventory.addButtonTapped`, `inventory.detailButtonTapped 1`,
  /// `inventory.destination.presented.addItem.binding.name Tea`,
  /// `inventory.path[0].detail.editButtonTapped`, `inventory.path.popFrom 0`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("addButtonTapped", "Opens the form that adds an item"),
      ActionCase("editButtonTapped", "Opens the form that edits this item", .labeled("id", Int.self)),
      ActionCase("deleteButtonTapped", "Deletes this item", .labeled("id", Int.self)),
      ActionCase("detailButtonTapped", "Opens this item's screen", .labeled("id", Int.self)),
      ActionCase(
        "destination", "The form over the list, while open",
        .unlabeled("action", PresentationAction<Inventory.Destination.Action>.self)),
      ActionCase(
        "path", "A screen above the list, or going back",
        .unlabeled("action", StackAction<Inventory.Path.State, Inventory.Path.Action>.self)),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .addButtonTapped: "addButtonTapped"
    case .editButtonTapped: "editButtonTapped"
    case .deleteButtonTapped: "deleteButtonTapped"
    case .detailButtonTapped: "detailButtonTapped"
    case .destination: "destination"
    case .path: "path"
    }
  }
}

extension Inventory.Destination.Action: DescribedAction {
  /// `addItem.…` or `editItem.…`, the form's actions.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("addItem", "The form adding an item", .unlabeled("action", ItemForm.Action.self)),
      ActionCase("editItem", "The form editing an item", .unlabeled("action", ItemForm.Action.self)),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .addItem: "addItem"
    case .editItem: "editItem"
    }
  }
}

extension Inventory.Path.Action: DescribedAction {
  /// `detail.editButtonTapped`, or the edit screen's `edit.…`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("detail", "An item's screen", .unlabeled("action", ItemDetail.Action.self)),
      ActionCase("edit", "An item's edit screen", .unlabeled("action", ItemForm.Action.self)),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .detail: "detail"
    case .edit: "edit"
    }
  }
}

extension ItemForm.Action: DescribedAction {
  /// `binding.name Tea`, `binding.quantity 3`, `saveButtonTapped`, `cancelButtonTapped`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("binding", "Sets a field of the form", .unlabeled("binding", BindingAction<ItemForm.State>.self)),
      ActionCase("saveButtonTapped", "Saves the item, if valid, and closes the form"),
      ActionCase("cancelButtonTapped", "Closes the form without saving"),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .binding: "binding"
    case .saveButtonTapped: "saveButtonTapped"
    case .cancelButtonTapped: "cancelButtonTapped"
    }
  }
}

extension ItemForm.State: DescribedBindableState {
  public static var describedFields: [BindableFieldSchema<Self>] {
    [
      BindableFieldSchema(\.item.name, "Sets the item's name"),
      BindableFieldSchema(\.item.quantity, "Sets how many there are"),
      BindableFieldSchema(\.item.notes, "Sets the notes"),
    ]
  }
}

extension ItemDetail.Action: DescribedAction {
  /// `editButtonTapped`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [ActionCase("editButtonTapped", "Opens the item's edit screen")])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .editButtonTapped: "editButtonTapped"
    }
  }
}
