import ActionLanguage
import ComposableCore
import FoundationEssentials

/// The bookshelf as the second build of `shelfd` has it (schema 2). Since
/// schema 1: `title` is `name`, `shelfColor` and its `paint` action are
/// gone, `visits` and `lastVisit` are new, `lending` carries the loan
/// period (the `loan-days` setting), and the shelf can be `closed`.
struct Shelf: Reducer {
  struct State: Codable, Equatable, Sendable {
    var name = "Shelf"
    var books: [Book] = []
    var nextID = 1
    var mode: Mode = .browsing
    var visits = 0
    var lastVisit: Date?
  }

  struct Book: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  enum Mode: Codable, Equatable, Sendable {
    case browsing
    case lending(to: String, days: Int)
    case closed
  }

  enum Action: Codable, Equatable, Sendable {
    case rename(String)
    case addBook(String)
    case removeBook(Int)
    case lend(to: String)
    case returned
    case close
    case visit
  }

  @Dependency(\.loanDays) var loanDays
  @Dependency(\.date) var date

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let name):
      state.name = name
    case .addBook(let title):
      state.books.append(Book(id: state.nextID, title: title))
      state.nextID += 1
    case .removeBook(let id):
      state.books.removeAll { $0.id == id }
    case .lend(let name):
      state.mode = .lending(to: name, days: loanDays)
    case .returned:
      state.mode = .browsing
    case .close:
      state.mode = .closed
    case .visit:
      state.visits += 1
      state.lastVisit = date.now
    }
    return .none
  }
}

/// How many days books are lent for: the `loan-days` setting.
enum LoanDaysKey: DependencyKey {
  static var liveValue: Int { 14 }
}

extension DependencyValues {
  var loanDays: Int {
    get { self[LoanDaysKey.self] }
    set { self[LoanDaysKey.self] = newValue }
  }
}

extension Shelf.Action: DescribedAction {
  static let describedCases: [DescribedCase<Self>] = [
    .init(.rename("Reading room"), "Renames the shelf"),
    .init(.addBook("Emma"), "Puts a book on the shelf"),
    .init(.removeBook(1), "Takes the book with this id off"),
    .init(.lend(to: "Ada"), "Lends the shelf's books to someone"),
    .init(.returned, "The books came back"),
    .init(.close, "Closes the shelf"),
    .init(.visit, "Someone looked at the shelf"),
  ]
}
