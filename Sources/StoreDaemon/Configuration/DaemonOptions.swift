import ComposableCore
import FoundationEssentials
import Glibc
import Journal
import Platform
import Replication

/// What the daemon was asked to do, from its command line and environment:
/// its own options, and the hosted app's settings as they resolved.
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
  /// How many clients may be connected at once (each costs a descriptor and
  /// its buffers; one thread serves them all).
  var maximumClients = 512
  /// How many named stores may be open at once (each holds three
  /// descriptors, under `--fsync always` a thread, its state and its
  /// journal's buffers): opening one more closes the one idle longest.
  var maximumStores = 128
  /// How long a named store may be idle (no client, no effect in flight)
  /// before it is closed, its memory and files let go.
  var storeIdleTimeout: Duration = .seconds(300)
  /// How many clients may be connected over the TCP listener at once,
  /// counted apart from those on the Unix socket.
  var maximumTCPClients = 128
  /// The `effectworker` executable the daemon starts its timer and storage
  /// workers from; the network worker is the same path with `-network` appended.
  var workerExecutable = WorkerEnvironment.defaultExecutable()
  /// `--worker KIND=PATH`: the program serving an app's own kind instead of
  /// the one the app declares (``HostedApp/workers``).
  var appWorkerPrograms: [WorkerKind: String] = [:]
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
  /// The hosted app's settings (``HostedApp/settings``), read from the
  /// settings file, the environment and the flags.
  var settings = ResolvedSettings()
  /// The etcd cluster the journal is replicated through, if any
  /// (docs/OPERATIONS.md, "A store across machines").
  var replication: ReplicationOptions?
  /// `--listen-tcp`: a TCP listener for clients on other machines, whose
  /// `hello` must give the token in `tokenFile`.
  var tcpListen: (host: String, port: UInt16)?
  var tokenFile: String?
  /// `--metrics HOST:PORT`: where Prometheus scrapes the metrics, if anywhere.
  var metricsListen: (host: String, port: UInt16)?

  /// `text` padded with spaces to `width` columns, for the usage's tables.
  static func column(_ text: String, width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
  }

  /// The help's lines for `--worker`, shown only for an app with kinds of
  /// its own.
  static func workerUsage(_ workers: [AppWorker], name: String) -> String {
    let kinds = workers.map { "\($0.kind)=\($0.executable)" }.joined(separator: ", ")
    return """
        --worker KIND=PATH     the program serving the app's own kind KIND instead of the one it
                               declares (\(kinds), beside \(name))

      """
  }

  /// The help of the daemon hosting `App`.
  static func usage<App: HostedApp>(for app: App.Type) -> String {
    let name = App.name
    return """
      usage: \(name) [options]
             \(name) verify [--state-dir DIR] [--show N] [feature settings]
             \(name) backup BACKUP [--state-dir DIR]
             \(name) restore BACKUP [--version V] [--state-dir DIR]

      Owns the application state and its reducers, and serves clients such as
      tcactl over a Unix socket. Runs in the foreground; stop it with SIGTERM or ^C.
      `\(name) verify` replays the journal through this build's reducers and
      compares every version with the recorded one (\(name) verify --help).
      `\(name) backup` copies the state while the daemon serves, and `\(name)
      restore` brings a state directory back to a version of such a copy
      (\(name) backup --help, \(name) restore --help).

      options:
        --socket PATH          the socket to listen on (default: $RUNTIME_DIRECTORY/\(name).sock,
                               else $XDG_RUNTIME_DIR/\(name)/\(name).sock,
                               else /tmp/\(name)-$UID/\(name).sock)
        --state-dir DIR        where state is kept (default: $STATE_DIRECTORY,
                               else $XDG_STATE_HOME/\(name), else ~/.local/state/\(name))
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
        --max-stores N         named stores open at once, at most (default 128): opening another
                               closes the one idle longest; a hello is refused if all are in use
        --store-idle-timeout S seconds a named store may have no client and no effect in flight
                               before it is closed, to be opened again by its next client
                               (default 300)
        --fsync POLICY         when the journal is made durable: always (default; an action is
                               acknowledged only once on disk), every-second, or never
        --repair               start even if the journal is damaged in the middle or holds a record the
                               state cannot be rebuilt with: keep what precedes it and move the rest
                               aside (never deleted)
        --effectworker PATH    the timer and storage worker executable (default: effectworker beside
                               \(name)); the network worker is PATH-network
      \(App.workers.isEmpty ? "" : Self.workerUsage(App.workers, name: name))\
        --worker-timeout S     seconds a worker may leave a ping unanswered before it is killed and
                               restarted (default 10)
        --spin MICROSECONDS    how long the store loop spins for more work before it sleeps, from
                               0 (never) to 10000 (default 50): CPU time for lower latency
        --config FILE          the feature settings file (default: \(name).conf in the state
                               directory, if it exists)
        --log-level LEVEL      error, warning, info (default) or debug; under systemd each line
                               starts with its journald priority (<3> error … <7> debug)
        --allow-internal-actions
                               let clients send the actions that only effects and \(name)
                               send (responses, timers landing, recoveries), for debugging

      monitoring (docs/OPERATIONS.md, "Metrics"):
        --metrics HOST:PORT    serve metrics in Prometheus' text format at http://HOST:PORT/metrics
                               (an IPv4 address; port 0 picks a free one, logged at start)

      across machines (docs/OPERATIONS.md, "A store across machines"):
        --listen-tcp HOST:PORT also listen on TCP (an IPv4 address; 0.0.0.0 for every interface), for
                               clients on other machines behind a TLS terminator such as stunnel4;
                               each must give the token of --token-file in its hello
        --token-file FILE      a file whose first line (16 characters or more) is that token
        --max-tcp-clients N    clients connected over TCP at once, at most (default 128), counted
                               apart from --max-clients: a flood over TCP never takes a local slot
        --replicate URL        replicate the journal through etcd, etcd://HOST:PORT[,HOST:PORT…]:
                               the daemon holding the store's leader lease serves sends, the others
                               follow the log as hot standbys and take over when it stops
        --store-id NAME        the store's name in etcd, shared by its daemons (needed with --replicate)
        --node-name NAME       this daemon's name in the leader key (default: the host name)
        --lease-ttl S          whole seconds the leader's lease lasts unrenewed, 2 to 3600 (default 10):
                               how long a standby waits before it takes over

      feature settings (flag, or \(AppSetting.environmentPrefix(appName: name))<NAME> in the environment, or
      'name = value' in the settings file; flags win over the environment, which
      wins over the file):
      \(App.settings.map { Self.column("  --\($0.name) \($0.valueName)", width: 25) + $0.help }.joined(separator: "\n"))
        --help                 show this help
        --version              show the version

      exit status: 0 after a clean stop, 64 for a usage or settings error, 65 when
      the state on disk cannot be recovered (damaged journal, a snapshot of another
      State shape; the files are left untouched), 70 when the socket, the state
      directory or the workers cannot be set up, or the app's actions are
      described so that their schema cannot be read (the message says why), 75 when a
      replicated daemon stops leading or following (deposed, or behind the log's
      snapshot): started again, it follows the log.
      """
  }

  /// The options ``parse(_:environment:app:)`` reads (`--help` and
  /// `--version` are answered before it): the daemon's own and the app's
  /// settings.
  static func options(settings: [AppSetting]) -> [ArgumentParser.Option] {
    [
      "--socket", "--state-dir", "--allow-group", "--handshake-timeout", "--heartbeat", "--lag-timeout",
      "--write-timeout", "--max-clients", "--max-stores", "--store-idle-timeout", "--client-buffer", "--effectworker",
      "--fsync",
      "--worker-timeout", "--spin",
      "--config", "--log-level", "--worker", "--replicate", "--store-id", "--node-name", "--lease-ttl",
      "--listen-tcp", "--token-file", "--max-tcp-clients", "--metrics",
    ].map { ArgumentParser.Option($0, value: "a value") }
      + [ArgumentParser.Option("--repair"), ArgumentParser.Option("--allow-internal-actions")]
      + settings.map { ArgumentParser.Option("--\($0.name)", value: "a value") }
  }

  /// Reads the options; throws a usage error naming the bad argument.
  static func parse<App: HostedApp>(
    _ arguments: [String], environment: [String: String], app: App.Type
  ) throws(UsageError) -> DaemonOptions {
    let settings = App.settings
    var socketPath: String?
    var stateDirectory: String?
    var options = DaemonOptions(socketPath: "", stateDirectory: "")
    var featureFlags: [(name: String, value: String)] = []
    var replicate: [EtcdEndpoint]?
    var storeID: String?
    var nodeName: String?
    var leaseTTL: Int?
    var maximumTCPClientsGiven = false
    func seconds(_ text: String, for flag: String) throws(UsageError) -> Duration {
      guard let seconds = Double(text), seconds >= 0.001, seconds < 86_400 else {
        throw .invalidValue(text, for: flag, expected: "a number of seconds between 0.001 and 86400")
      }
      return .milliseconds(Int(seconds * 1000))
    }
    var parser = ArgumentParser(arguments, options: Self.options(settings: settings))
    while let argument = try parser.next() {
      switch argument {
      case .option("--socket", let text?): socketPath = text
      case .option("--state-dir", let text?): stateDirectory = text
      case .option("--allow-group", let text?): options.allowedGroup = text
      case .option("--handshake-timeout", let text?):
        options.handshakeTimeout = try seconds(text, for: "--handshake-timeout")
      case .option("--heartbeat", let text?): options.heartbeatInterval = try seconds(text, for: "--heartbeat")
      case .option("--lag-timeout", let text?): options.lagTimeout = try seconds(text, for: "--lag-timeout")
      case .option("--write-timeout", let text?): options.writeTimeout = try seconds(text, for: "--write-timeout")
      case .option("--max-clients", let text?):
        guard let count = Int(text), count >= 1, count <= 100_000 else {
          throw .invalidValue(text, for: "--max-clients", expected: "a number between 1 and 100000")
        }
        options.maximumClients = count
      case .option("--max-stores", let text?):
        guard let count = Int(text), count >= 0, count <= 1_000_000 else {
          throw .invalidValue(text, for: "--max-stores", expected: "a number between 0 and 1000000")
        }
        options.maximumStores = count
      case .option("--store-idle-timeout", let text?):
        options.storeIdleTimeout = try seconds(text, for: "--store-idle-timeout")
      case .option("--client-buffer", let text?):
        guard let bytes = Int(text), bytes >= 4096, bytes <= 1 << 30 else {
          throw .invalidValue(text, for: "--client-buffer", expected: "a number of bytes between 4096 and 1073741824")
        }
        options.outboxLimit = bytes
      case .option("--effectworker", let text?): options.workerExecutable = text
      case .option("--worker", let text?):
        let (kind, program) = try appWorkerProgram(text, declared: App.workers)
        guard options.appWorkerPrograms.updateValue(program, forKey: kind) == nil else {
          throw UsageError("--worker names the kind '\(kind)' twice; give each kind once")
        }
      case .option("--repair", nil): options.repair = true
      case .option("--allow-internal-actions", nil): options.allowsInternalActions = true
      case .option("--fsync", let text?):
        guard let policy = SyncPolicy(rawValue: text) else {
          throw .invalidValue(text, for: "--fsync", expected: "always, every-second or never")
        }
        options.syncPolicy = policy
      case .option("--worker-timeout", let text?): options.workerTimeout = try seconds(text, for: "--worker-timeout")
      case .option("--spin", let text?):
        guard let microseconds = Int(text), microseconds >= 0, microseconds <= 10_000 else {
          throw .invalidValue(text, for: "--spin", expected: "a number of microseconds between 0 and 10000")
        }
        options.spin = .microseconds(microseconds)
      case .option("--config", let text?): options.configurationFile = text
      case .option("--listen-tcp", let text?): options.tcpListen = try address(text, for: "--listen-tcp", port: 7420)
      case .option("--metrics", let text?): options.metricsListen = try address(text, for: "--metrics", port: 9464)
      case .option("--token-file", let text?): options.tokenFile = text
      case .option("--max-tcp-clients", let text?):
        guard let count = Int(text), count >= 1, count <= 100_000 else {
          throw .invalidValue(text, for: "--max-tcp-clients", expected: "a number between 1 and 100000")
        }
        options.maximumTCPClients = count
        maximumTCPClientsGiven = true
      case .option("--replicate", let text?):
        do {
          replicate = try EtcdEndpoint.parse(url: text)
        } catch {
          throw .invalidValue(text, for: "--replicate", expected: "etcd://HOST:PORT[,HOST:PORT…] (\(error))")
        }
      case .option("--store-id", let text?):
        guard ReplicationOptions.isValidStoreID(text) else {
          throw .invalidValue(text, for: "--store-id", expected: "a name of letters, digits, '.', '_' and '-'")
        }
        storeID = text
      case .option("--node-name", let text?):
        guard !text.isEmpty, text.utf8.count <= 256 else {
          throw .invalidValue(text, for: "--node-name", expected: "a name of 1 to 256 bytes")
        }
        nodeName = text
      case .option("--lease-ttl", let text?):
        guard let seconds = Int(text), seconds >= 2, seconds <= 3600 else {
          throw .invalidValue(text, for: "--lease-ttl", expected: "a whole number of seconds between 2 and 3600")
        }
        leaseTTL = seconds
      case .option("--log-level", let text?):
        guard let level = LogLevel(name: text) else {
          throw .invalidValue(text, for: "--log-level", expected: "error, warning, info or debug")
        }
        options.logLevel = level
      case .option(let flag, let flagValue?) where settings.contains(where: { "--" + $0.name == flag }):
        featureFlags.append((String(flag.dropFirst(2)), flagValue))
      case .option(let word, _), .unknownOption(let word), .positional(let word):
        throw UsageError("unknown option '\(word)'")
      }
    }
    if let replicate {
      guard let storeID else { throw UsageError("--replicate needs --store-id NAME: the store's name in etcd") }
      options.replication = ReplicationOptions(
        endpoints: replicate, storeID: storeID, nodeName: nodeName ?? ReplicationOptions.hostName(),
        leaseTTL: leaseTTL ?? 10)
    } else if storeID != nil || nodeName != nil || leaseTTL != nil {
      throw UsageError("--store-id, --node-name and --lease-ttl go with --replicate etcd://HOST:PORT")
    }
    if options.tcpListen != nil && options.tokenFile == nil {
      throw UsageError(
        "--listen-tcp needs --token-file FILE: a TCP peer has no user to check, so each client must give the token")
    }
    if options.tcpListen == nil && options.tokenFile != nil {
      throw UsageError("--token-file goes with --listen-tcp HOST:PORT")
    }
    if options.tcpListen == nil && maximumTCPClientsGiven {
      throw UsageError("--max-tcp-clients goes with --listen-tcp HOST:PORT")
    }
    options.socketPath = socketPath ?? RuntimePaths.defaultSocket(name: App.name, environment: environment)
    options.stateDirectory =
      stateDirectory ?? RuntimePaths.defaultStateDirectory(name: App.name, environment: environment)
    var file: (path: String, text: String)?
    if let path = options.configurationFile {
      file = try ConfigurationFile.read(path, required: true).map { (path, $0) }
    } else {
      let path = options.stateDirectory + "/\(App.name).conf"
      if let text = try ConfigurationFile.read(path, required: false) {
        file = (path, text)
        options.configurationFile = path
      }
    }
    options.settings = try ResolvedSettings.resolve(
      settings, appName: App.name, file: file, environment: environment, flags: featureFlags)
    return options
  }

  /// `HOST:PORT` of a listening flag, e.g. `127.0.0.1:7420` (`port` is
  /// the example's).
  static func address(_ text: String, for flag: String, port example: Int) throws(UsageError) -> (String, UInt16) {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]),
      !text[..<colon].isEmpty
    else {
      throw .invalidValue(text, for: flag, expected: "HOST:PORT, e.g. 127.0.0.1:\(example) or 0.0.0.0:\(example)")
    }
    return (String(text[..<colon]), port)
  }

  /// `--worker KIND=PATH` read against the kinds the app declares.
  static func appWorkerProgram(
    _ text: String, declared: [AppWorker]
  ) throws(UsageError) -> (WorkerKind, String) {
    let kinds = declared.map(\.kind.rawValue)
    let expected =
      kinds.isEmpty
      ? "KIND=PATH for a kind of the app's own, and this app declares none"
      : "KIND=PATH, where KIND is one of the app's own kinds (\(kinds.joined(separator: ", ")))"
    guard let equals = text.firstIndex(of: "="), !text[text.index(after: equals)...].isEmpty,
      let worker = declared.first(where: { $0.kind.rawValue == text[..<equals] })
    else {
      throw .invalidValue(text, for: "--worker", expected: expected)
    }
    let path = String(text[text.index(after: equals)...])
    return (worker.kind, path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
  }
}
