import ActionLanguage
import ComposableCore

/// A bookshelf as the first build of `shelfd` had it (schema 1): the app the
/// schema upgrade tests start from. The second build (ShelfV2) renamed
/// `title`, removed `shelfColor`, added `visits`, gave `lending` a loan
/// period and added the `closed` mode; its migration reads this shape.
struct Shelf: Reducer {
  struct State: Codable, Equatable, Sendable {
    var title = "Shelf"
    var books: [Book] = []
    var nextID = 1
    var shelfColor = "oak"
    var mode: Mode = .browsing
  }

  struct Book: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  enum Mode: Codable, Equatable, Sendable {
    case browsing
    case lending(to: String)
  }

  enum Action: Codable, Equatable, Sendable {
    case rename(String)
    case addBook(String)
    case removeBook(Int)
    case paint(String)
    case lend(String)
    case returned
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let title):
      state.title = title
    case .addBook(let title):
      state.books.append(Book(id: state.nextID, title: title))
      state.nextID += 1
    case .removeBook(let id):
      state.books.removeAll { $0.id == id }
    case .paint(let color):
      state.shelfColor = color
    case .lend(let name):
      state.mode = .lending(to: name)
    case .returned:
      state.mode = .browsing
    }
    return .none
  }
}

extension Shelf.Action: DescribedAction {
  static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("rename", "Renames the shelf", .unlabeled("title", String.self)),
      ActionCase("addBook", "Puts a book on the shelf", .unlabeled("title", String.self)),
      ActionCase("removeBook", "Takes the book with this id off", .unlabeled("id", Int.self)),
      ActionCase("paint", "Paints the shelf", .unlabeled("color", String.self)),
      ActionCase("lend", "Lends the shelf's books to someone", .unlabeled("name", String.self)),
      ActionCase("returned", "The books came back"),
    ])
  }

  var actionCaseName: String {
    switch self {
    case .rename: "rename"
    case .addBook: "addBook"
    case .removeBook: "removeBook"
    case .paint: "paint"
    case .lend: "lend"
    case .returned: "returned"
    }
  }
}
