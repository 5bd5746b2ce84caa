import ComposableCore
import Platform
import Synchronization

/// The hosted app's name, as the daemon's log lines and messages say it:
/// `storedaemon` for the seed apps, `todosd` for the Todos example. Set once
/// by ``HostedApp/runDaemon()`` before anything is logged.
enum DaemonName {
  private static let name = Mutex("storedaemon")

  static var current: String {
    get { name.withLock { $0 } }
    set { name.withLock { $0 = newValue } }
  }
}

/// The daemon's log: `NAME: …` lines on standard error (``Logger``), filtered
/// by `--log-level`.
// swift-format-ignore: AlwaysUseLowerCamelCase
// Named as a type is, so that call sites read `Log.info("…")`.
var Log: Logger { Logger(name: DaemonName.current, namesLevels: true) }

extension IssueReporter {
  /// A reducer's runtime issue (an action dropped, ``reportDroppedAction(_:action:location:)``)
  /// as a warning in the daemon's log; the store loop reduces under it.
  static let daemonLog = IssueReporter { message, location in
    Log.warning("runtime issue: \(message)" + (location.map { " (\($0))" } ?? ""))
  }
}
