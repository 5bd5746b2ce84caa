import StoreDaemon
import Todos

/// The Todos list hosted by storedaemon's library as a daemon of its own,
/// `todosd`: it owns the list, journals every action, recovers after a
/// crash, and serves `tcactl --app todosd` over its Unix socket. The
/// delayed sort runs on the built-in timer worker; the export runs on the
/// app's own `export` worker, a Python program (Workers/todos-export).
enum TodosApp: HostedApp {
  static let name = "todosd"
  static let version = "1.0.0"

  static func makeRoot() -> Todos { Todos() }

  static var initialState: Todos.State { Todos.emptyList }

  /// `todos-export` is installed beside `todosd`; `--worker export=PATH`
  /// points the daemon at another copy (the tests, a checkout).
  static let workers = [AppWorker(kind: Export.kind, executable: "todos-export")]
}
