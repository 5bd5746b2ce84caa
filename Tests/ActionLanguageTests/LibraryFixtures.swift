import ActionLanguage
import ComposableCore
import FoundationEssentials

/// A small action tree that uses every kind of value a schema can describe:
/// scalars, labeled and unlabeled values, optionals, a string enum, an opaque
/// JSON payload, a collection with string ids, a binding, a recursive action
/// and a navigation stack.
enum LibraryAction: Equatable, DescribedAction {
  case open
  case move(Int, to: Shelf)
  case weigh(grams: Double, exact: Bool)
  case tag(String?, note: Note?)
  case lookup(UUID)
  case items(IdentifiedAction<String, ItemAction>)
  case settings(BindingAction<LibrarySettings>)
  case attach(Note)
  case tree(TreeAction)
  case screens(StackAction<String, ItemAction>)

  static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("open", "Opens the library"),
      ActionCase("move", "Moves a book", .unlabeled("position", Int.self), .labeled("to", Shelf.self)),
      ActionCase("weigh", "Weighs a book", .labeled("grams", Double.self), .labeled("exact", Bool.self)),
      ActionCase("tag", "Tags a book", .unlabeled("name", String?.self), .labeled("note", .optional(Note.schema))),
      ActionCase("lookup", "Looks a book up", .unlabeled("id", UUID.self)),
      ActionCase("items", "An item's action", .unlabeled("item", IdentifiedAction<String, ItemAction>.self)),
      ActionCase("settings", "Sets a setting", .unlabeled("binding", BindingAction<LibrarySettings>.self)),
      ActionCase("attach", "Attaches a note", .unlabeled("note", Note.schema)),
      ActionCase("tree", "A tree's action", .unlabeled("action", TreeAction.self)),
      ActionCase(
        "screens", "A screen's action, or going back", .unlabeled("action", StackAction<String, ItemAction>.self)),
    ])
  }

  var actionCaseName: String {
    switch self {
    case .open: "open"
    case .move: "move"
    case .weigh: "weigh"
    case .tag: "tag"
    case .lookup: "lookup"
    case .items: "items"
    case .settings: "settings"
    case .attach: "attach"
    case .tree: "tree"
    case .screens: "screens"
    }
  }
}

enum Shelf: String, CaseIterable, Codable, Sendable, DescribedValue {
  case top
  case bottom = "Bottom"
}

struct Note: Equatable, Codable, Sendable {
  var text: String
  var pinned: Bool

  static let schema = ValueSchema.json(Note.self, sample: Note(text: "read me", pinned: true))
}

enum ItemAction: Equatable, DescribedAction {
  case rename(String)
  case toggle

  static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("rename", "Renames the item", .unlabeled("name", String.self)),
      ActionCase("toggle", "Toggles the item"),
    ])
  }

  var actionCaseName: String {
    switch self {
    case .rename: "rename"
    case .toggle: "toggle"
    }
  }
}

indirect enum TreeAction: Equatable, DescribedAction {
  case grow(TreeAction)
  case leaf

  static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("grow", "Grows a branch", .unlabeled("branch", TreeAction.self)),
      ActionCase("leaf", "Grows a leaf"),
    ])
  }

  var actionCaseName: String {
    switch self {
    case .grow: "grow"
    case .leaf: "leaf"
    }
  }
}

struct LibrarySettings: Equatable, Codable, Sendable, DescribedBindableState {
  var name = ""
  var age = 0

  static var bindableFields: [BindableField<Self>] {
    [BindableField("name", \.name), BindableField("age", \.age)]
  }

  static var describedFields: [BindableFieldSchema<Self>] {
    [BindableFieldSchema(\.name, "Sets the name"), BindableFieldSchema(\.age, "Sets the age")]
  }
}

extension ActionSchema {
  /// The library's schema.
  static var library: ActionSchema { LibraryAction.actionSchema }
}
