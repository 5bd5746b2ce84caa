import ComposableCore
import Features
import FoundationEssentials
import Glibc
import Journal
import Platform

/// What `storedaemon` was asked to do, from its command line and environment.
struct DaemonOptions: Sendable {
  /// The listening socket's path.
  var socketPath: String
  /// Where the daemon keeps its state.
  var stateDirectory: String
  /// A group whose members may use the socket (mode 0660), besides the owner.
  var allowedGroup: String?
  /// How long a new connection may stay silent before its `hello`.
  var handshakeTimeout: Duration = .seconds(5)
  /// How often an idle subscriber hears a heartbeat.
  var heartbeatInterval: Duration = .seconds(10)
  /// How many bytes of answers, and of everything else, may wait for one
  /// client: past them its next requests wait until it reads, and a
  /// subscriber is resynced with a snapshot.
  var outboxLimit: Int = 4 << 20
  /// How long a write to a client may wait for it to read before the
  /// connection is closed.
  var writeTimeout: Duration = .seconds(10)
  /// How long a subscriber that must be resynced may have read nothing
  /// before it is disconnected as lagged instead.
  var lagTimeout: Duration = .seconds(2)
  /// How many recent diffs are kept for subscribers resuming from a version.
  var retainedDiffs: Int = 4096
  /// The largest frame accepted from a client.
  var maximumFrame: UInt32 = 1 << 20
  /// How many clients may be connected at once (each costs two threads).
  var maximumClients = 512
  /// The `effectworker` executable the daemon starts its timer and storage
  /// workers from; the network worker is the same path with `-network` appended.
  var workerExecutable = WorkerEnvironment.defaultExecutable()
  /// How long a worker may leave a ping unanswered before it is killed and
  /// restarted; it is pinged every half of this.
  var workerTimeout: Duration = .seconds(10)
  /// How long the store loop spins, when it runs out of work, before it
  /// sleeps (``LoopWaiter``): CPU spent for the latency of the next request.
  var spin: Duration = .microseconds(50)
  /// When the journal is made durable (docs/DURABILITY.md).
  var syncPolicy = SyncPolicy.always
  /// Whether recovery may move damaged journal data aside and start from what
  /// precedes it.
  var repair = false
  /// The configuration file the feature settings were read from, if any.
  var configurationFile: String?
  /// The least important log lines written (`--log-level`).
  var logLevel = LogLevel.info
  /// Whether clients may send the internal actions that answer effects
  /// (responses, timers landing, recoveries), for debugging a feature.
  var allowsInternalActions = false
  /// The features' API locations and timings.
  var features = AppConfiguration.live

  static let version = "0.2.0"

  /// `text` padded with spaces to `width` columns, for the usage's tables.
  static func column(_ text: String, width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
  }

  static let usage = """
    usage: storedaemon [options]

    Owns the application state and its reducers, and serves clients such as
    tcactl over a Unix socket. Runs in the foreground; stop it with SIGTERM or ^C.

    options:
      --socket PATH          the socket to listen on (default: $RUNTIME_DIRECTORY/storedaemon.sock,
                             else $XDG_RUNTIME_DIR/storedaemon/storedaemon.sock,
                             else /tmp/storedaemon-$UID/storedaemon.sock)
      --state-dir DIR        where state is kept (default: $STATE_DIRECTORY,
                             else $XDG_STATE_HOME/storedaemon, else ~/.local/state/storedaemon)
      --allow-group GROUP    let members of GROUP use the socket (mode 0660 instead of 0600)
      --handshake-timeout S  seconds a client may stay silent before its hello (default 5)
      --heartbeat S          seconds between heartbeats to idle subscribers (default 10)
      --client-buffer BYTES  bytes that may wait for one client, answers and the rest each
                             (default 4194304): past them its next requests wait until it reads,
                             and its subscription is resynced with a snapshot
      --lag-timeout S        seconds a subscriber that must be resynced may have read nothing
                             before it is disconnected as lagged instead (default 2)
      --write-timeout S      seconds a write may wait for a client to read before the
                             connection is closed (default 10)
      --max-clients N        clients connected at once, at most (default 512)
      --fsync POLICY         when the journal is made durable: always (default; an action is
                             acknowledged only once on disk), every-second, or never
      --repair               start even if the journal is damaged in the middle or holds a record the
                             state cannot be rebuilt with: keep what precedes it and move the rest
                             aside (never deleted)
      --effectworker PATH    the timer and storage worker executable (default: effectworker beside
                             storedaemon); the network worker is PATH-network
      --worker-timeout S     seconds a worker may leave a ping unanswered before it is killed and
                             restarted (default 10)
      --spin MICROSECONDS    how long the store loop spins for more work before it sleeps, from
                             0 (never) to 10000 (default 50): CPU time for lower latency
      --config FILE          the feature settings file (default: storedaemon.conf in the state
                             directory, if it exists)
      --log-level LEVEL      error, warning, info (default) or debug; under systemd each line
                             starts with its journald priority (<3> error … <7> debug)
      --allow-internal-actions
                             let clients send the actions that only effects and storedaemon
                             send (responses, timers landing, recoveries), for debugging

    feature settings (flag, or STOREDAEMON_<NAME> in the environment, or
    'name = value' in the settings file; flags win over the environment, which
    wins over the file):
    \(FeatureSetting.all.map { Self.column("  --\($0.name) \($0.valueName)", width: 25) + $0.help }.joined(separator: "\n"))
      --help                 show this help
      --version              show the version

    exit status: 0 after a clean stop, 64 for a usage or settings error, 65 when
    the state on disk cannot be recovered (damaged journal, a snapshot of another
    State shape; the files are left untouched), 70 when the socket, the state
    directory or the workers cannot be set up (the message says why).
    """

  /// Reads the options; throws a usage error naming the bad argument.
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> DaemonOptions {
    var socketPath: String?
    var stateDirectory: String?
    var options = DaemonOptions(socketPath: "", stateDirectory: "")
    var featureFlags: [(name: String, value: String)] = []
    var index = 0
    func value(for flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
      return arguments[index]
    }
    func seconds(for flag: String) throws(UsageError) -> Duration {
      let text = try value(for: flag)
      guard let seconds = Double(text), seconds >= 0.001, seconds < 86_400 else {
        throw UsageError("\(flag) takes a number of seconds between 0.001 and 86400, got '\(text)'")
      }
      return .milliseconds(Int(seconds * 1000))
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--socket": socketPath = try value(for: argument)
      case "--state-dir": stateDirectory = try value(for: argument)
      case "--allow-group": options.allowedGroup = try value(for: argument)
      case "--handshake-timeout": options.handshakeTimeout = try seconds(for: argument)
      case "--heartbeat": options.heartbeatInterval = try seconds(for: argument)
      case "--lag-timeout": options.lagTimeout = try seconds(for: argument)
      case "--write-timeout": options.writeTimeout = try seconds(for: argument)
      case "--max-clients":
        let text = try value(for: argument)
        guard let count = Int(text), count >= 1, count <= 100_000 else {
          throw UsageError("--max-clients takes a number between 1 and 100000, got '\(text)'")
        }
        options.maximumClients = count
      case "--client-buffer":
        let text = try value(for: argument)
        guard let bytes = Int(text), bytes >= 4096, bytes <= 1 << 30 else {
          throw UsageError("--client-buffer takes a number of bytes between 4096 and 1073741824, got '\(text)'")
        }
        options.outboxLimit = bytes
      case "--effectworker": options.workerExecutable = try value(for: argument)
      case "--repair": options.repair = true
      case "--allow-internal-actions": options.allowsInternalActions = true
      case "--fsync":
        let text = try value(for: argument)
        guard let policy = SyncPolicy(rawValue: text) else {
          throw UsageError("--fsync takes always, every-second or never, got '\(text)'")
        }
        options.syncPolicy = policy
      case "--worker-timeout": options.workerTimeout = try seconds(for: argument)
      case "--spin":
        let text = try value(for: argument)
        guard let microseconds = Int(text), microseconds >= 0, microseconds <= 10_000 else {
          throw UsageError("--spin takes a number of microseconds between 0 and 10000, got '\(text)'")
        }
        options.spin = .microseconds(microseconds)
      case "--config": options.configurationFile = try value(for: argument)
      case "--log-level":
        let text = try value(for: argument)
        guard let level = LogLevel(name: text) else {
          throw UsageError("--log-level takes error, warning, info or debug, got '\(text)'")
        }
        options.logLevel = level
      case _ where argument.hasPrefix("--") && FeatureSetting.named(String(argument.dropFirst(2))) != nil:
        let name = String(argument.dropFirst(2))
        let flagValue = try value(for: argument)
        // Checked now, so a bad flag is reported as such.
        var scratch = AppConfiguration.live
        try FeatureSetting.named(name)!.apply(&scratch, flagValue)
        featureFlags.append((name, flagValue))
      default: throw UsageError("unknown option '\(argument)'")
      }
      index += 1
    }
    options.socketPath = socketPath ?? RuntimePaths.defaultSocket(environment: environment)
    options.stateDirectory = stateDirectory ?? RuntimePaths.defaultStateDirectory(environment: environment)
    var file: (path: String, text: String)?
    if let path = options.configurationFile {
      file = try ConfigurationFile.read(path, required: true).map { (path, $0) }
    } else {
      let path = options.stateDirectory + "/storedaemon.conf"
      if let text = try ConfigurationFile.read(path, required: false) {
        file = (path, text)
        options.configurationFile = path
      }
    }
    options.features = try AppConfiguration.resolve(file: file, environment: environment, flags: featureFlags)
    return options
  }
}

/// A command line `storedaemon` cannot act on.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
