import StoreDaemon

/// `shelfd` 1.0.0: schema 1 (the default).
enum ShelfApp: HostedApp {
  static let name = "shelfd"
  static let version = "1.0.0"
  static func makeRoot() -> Shelf { Shelf() }
  static var initialState: Shelf.State { Shelf.State() }
}

ShelfApp.runDaemon()
