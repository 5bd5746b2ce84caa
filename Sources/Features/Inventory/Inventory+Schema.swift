import ActionLanguage
import ComposableCore

extension Inventory.Action: DescribedAction {
  /// `inventory.addButtonTapped`, `inventory.detailButtonTapped 1`,
  /// `inventory.destination.presented.addItem.binding.name Tea`,
  /// `inventory.path[0].detail.editButtonTapped`, `inventory.path.popFrom 0`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.addButtonTapped, "Opens the form that adds an item"),
    .init(.editButtonTapped(id: 1), "Opens the form that edits this item"),
    .init(.deleteButtonTapped(id: 1), "Deletes this item"),
    .init(.detailButtonTapped(id: 1), "Opens this item's screen"),
    .init(.destination(.dismiss), "The form over the list, while open"),
    .init(.path(.popFrom(id: 0)), "A screen above the list, or going back"),
  ]
}

extension Inventory.Destination.Action: DescribedAction {
  /// `addItem.…` or `editItem.…`, the form's actions.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.addItem(.saveButtonTapped), "The form adding an item"),
    .init(.editItem(.saveButtonTapped), "The form editing an item"),
  ]
}

extension Inventory.Path.Action: DescribedAction {
  /// `detail.editButtonTapped`, or the edit screen's `edit.…`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.detail(.editButtonTapped), "An item's screen"),
    .init(.edit(.saveButtonTapped), "An item's edit screen"),
  ]
}

extension ItemForm.Action: DescribedAction {
  /// `binding.name Tea`, `binding.quantity 3`, `saveButtonTapped`, `cancelButtonTapped`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.binding(.set(\.item.name, "Tea")), "Sets a field of the form"),
    .init(.saveButtonTapped, "Saves the item, if valid, and closes the form"),
    .init(.cancelButtonTapped, "Closes the form without saving"),
  ]
}

extension ItemDetail.Action: DescribedAction {
  /// `editButtonTapped`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.editButtonTapped, "Opens the item's edit screen")
  ]
}
