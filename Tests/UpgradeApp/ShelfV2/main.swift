import ComposableCore
import StoreDaemon

/// `shelfd` 2.0.0: schema 2, which reads the data of schema 1 through its
/// migration.
enum ShelfApp: HostedApp {
  static let name = "shelfd"
  static let version = "2.0.0"
  static func makeRoot() -> Shelf { Shelf() }
  static var initialState: Shelf.State { Shelf.State() }

  static let settings = [
    AppSetting("loan-days", value: "DAYS", help: "how many days books are lent for (default 14)") {
      dependencies, value throws(AppSetting.Invalid) in
      guard let days = Int(value), (1...365).contains(days) else {
        throw AppSetting.Invalid(expected: "a number of days from 1 to 365")
      }
      dependencies.loanDays = days
    }
  ]

  static let schemaVersion = 2

  static let migrations = [
    SchemaMigration(
      from: 1,
      state: { (old: ShelfV1.State) in
        Shelf.State(
          name: old.title, books: old.books.map { Shelf.Book(id: $0.id, title: $0.title) }, nextID: old.nextID,
          mode: mode(old.mode))
      },
      action: { (old: ShelfV1.Action) -> Shelf.Action? in
        switch old {
        case .rename(let title): .rename(title)
        case .addBook(let title): .addBook(title)
        case .removeBook(let id): .removeBook(id)
        case .paint: nil
        case .lend(let name): .lend(to: name)
        case .returned: .returned
        }
      })
  ]

  /// Books lent under schema 1 were lent for the default period.
  static func mode(_ old: ShelfV1.Mode) -> Shelf.Mode {
    switch old {
    case .browsing: .browsing
    case .lending(let name): .lending(to: name, days: 14)
    }
  }
}

ShelfApp.runDaemon()
