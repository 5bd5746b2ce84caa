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
  static let describedCases: [DescribedCase<Self>] = [
    .init(.rename("Reading room"), "Renames the shelf"),
    .init(.addBook("Emma"), "Puts a book on the shelf"),
    .init(.removeBook(1), "Takes the book with this id off"),
    .init(.paint("oak"), "Paints the shelf"),
    .init(.lend("Ada"), "Lends the shelf's books to someone"),
    .init(.returned, "The books came back"),
  ]
}
