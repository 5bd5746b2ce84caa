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

  static let describedCases: [DescribedCase<Self>] = [
    .init(.open, "Opens the library"),
    .init(.move(1, to: .top), "Moves a book"),
    .init(.weigh(grams: 1.5, exact: true), "Weighs a book"),
    .init(.tag("text", note: Note.sample), "Tags a book"),
    .init(.lookup(UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()), "Looks a book up"),
    .init(.items(.element(id: "a", action: .toggle)), "An item's action"),
    .init(.settings(.set(\.name, "Ada")), "Sets a setting"),
    .init(.attach(Note.sample), "Attaches a note"),
    .init(.tree(.leaf), "A tree's action"),
    .init(.screens(.popFrom(id: 0)), "A screen's action, or going back"),
  ]
}

enum Shelf: String, CaseIterable, Codable, Sendable {
  case top
  case bottom = "Bottom"
}

struct Note: Equatable, Codable, Sendable {
  var text: String
  var pinned: Bool

  static let sample = Note(text: "read me", pinned: true)
}

enum ItemAction: Equatable, DescribedAction {
  case rename(String)
  case toggle

  static let describedCases: [DescribedCase<Self>] = [
    .init(.rename("text"), "Renames the item"),
    .init(.toggle, "Toggles the item"),
  ]
}

indirect enum TreeAction: Equatable, DescribedAction {
  case grow(TreeAction)
  case leaf

  static let describedCases: [DescribedCase<Self>] = [
    .init(.grow(.leaf), "Grows a branch"),
    .init(.leaf, "Grows a leaf"),
  ]
}

struct LibrarySettings: Equatable, Codable, Sendable, BindableState {
  var name = ""
  var age = 0

  static var bindableFields: [BindableField<Self>] {
    [BindableField("name", \.name, "Sets the name"), BindableField("age", \.age, "Sets the age")]
  }
}

extension ActionSchema {
  /// The library's schema.
  static var library: ActionSchema { LibraryAction.actionSchema }
}
