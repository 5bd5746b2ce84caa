import ActionLanguage
import ComposableCore

/// An app the daemon hosts: everything the daemon library needs to know of it.
///
/// The executable that hosts it is one line, `MyApp.runDaemon()`: the
/// daemon owns the state, reduces every action with ``Root``, journals and
/// recovers, runs the effects in worker processes and serves `tcactl` and
/// other clients over a Unix socket (docs/ARCHITECTURE.md, "Hosting an app").
public protocol HostedApp: SendableMetatype {
  /// The app's root reducer. Its state is what clients read, diff and the
  /// journal holds; its actions are what clients send, as paths
  /// (`pour 2`, `todos[<id>].checkBoxToggled`) described by `Action.actionSchema` or as JSON.
  /// A feature waiting on an effect when the daemon stopped hears so through
  /// ``Reducer/recoveryActions(for:)`` (``RecoverableFeature``).
  associatedtype Root: Reducer
  where Root.State: Codable & Equatable & Sendable, Root.Action: Codable & Sendable & DescribedAction

  /// The app's name: the executable's, and the default socket
  /// (`<name>.sock`), state directory, settings file (`<name>.conf`),
  /// environment prefix (`<NAME>_`) and what `--help` and `--version` say.
  static var name: String { get }
  /// The version `--version`, `tcactl status` and every client's `welcome` show.
  static var version: String { get }
  /// The root reducer, made once when the daemon starts.
  static func makeRoot() -> Root
  /// The state before the first action; recovery starts from the journal.
  static var initialState: Root.State { get }
  /// The settings the app's features read (``AppSetting``), read from flags,
  /// the environment and the settings file, reloaded on SIGHUP, and listed in
  /// `--help`. Each applies its value to the `DependencyValues` the reducers
  /// see.
  static var settings: [AppSetting] { get }
  /// The app's own effect kinds (``AppWorker``): each served by a program
  /// that speaks the worker protocol (docs/PROTOCOL.md, "Worker protocol"),
  /// started, pinged and restarted beside the built-in timer, network and
  /// storage workers. Features reach one with `Effect.worker(kind, request,
  /// decoding:then:)`.
  static var workers: [AppWorker] { get }
  /// The version of the state's schema this build writes: raise it by one
  /// whenever `Root.State` or `Root.Action` changes in a way the journal's
  /// JSON does not already read (a field renamed or removed, a case changed),
  /// and add the migration from the previous one to ``migrations``
  /// (docs/HOSTING.md, "Changing the state").
  static var schemaVersion: Int { get }
  /// The migrations from each older schema the app still reads to the next
  /// (``SchemaMigration``): on start with data of an older schema the daemon
  /// migrates it once, records the migration and writes a snapshot.
  static var migrations: [SchemaMigration] { get }
}

extension HostedApp {
  /// An app without settings.
  public static var settings: [AppSetting] { [] }
  /// An app whose effects use only the built-in workers.
  public static var workers: [AppWorker] { [] }
  /// An app whose state has kept its first shape.
  public static var schemaVersion: Int { 1 }
  /// An app whose state has kept its first shape.
  public static var migrations: [SchemaMigration] { [] }

  /// The schema version and migrations, together.
  static var schema: AppSchema { AppSchema(version: schemaVersion, migrations: migrations) }
  /// The build, as a migration record names it: `name version`.
  static var build: String { "\(name) \(version)" }
}
