/// Schema 1's types, frozen as the first build wrote them: what the
/// migration to schema 2 reads. They are never changed again; a later
/// schema gets a frozen copy of its own.
enum ShelfV1 {
  struct State: Decodable {
    var title: String
    var books: [Book]
    var nextID: Int
    var shelfColor: String
    var mode: Mode
  }

  struct Book: Decodable {
    var id: Int
    var title: String
  }

  enum Mode: Decodable {
    case browsing
    case lending(to: String)
  }

  enum Action: Decodable {
    case rename(String)
    case addBook(String)
    case removeBook(Int)
    case paint(String)
    case lend(String)
    case returned
  }
}
