import ComposableCore
import Dispatch
import FoundationEssentials
import Glibc
import Metrics
import Platform
import Synchronization
import Wire

/// The running daemon of `App`: the store loop, the listener and the signal
/// handling, wired together.
final class Daemon<App: HostedApp>: Sendable {
  let options: DaemonOptions
  /// The command line, read again on reload.
  private let arguments: [String]
  private let listenerPath: String
  private let loop: StoreLoop<App>
  private let notifier: ServiceNotifier
  /// The `/metrics` listener (`--metrics`), if asked for.
  private let metrics: MetricsEndpoint?

  init(options: DaemonOptions, arguments: [String]) throws {
    self.arguments = arguments
    var options = options
    // A socket systemd passed wins over the configured path.
    let passed = try SocketActivation.passedSocket(environment: ProcessInfo.processInfo.environment, name: App.name)
    if let passed, passed.path != options.socketPath {
      Log.info("socket-activated: listening on \(passed.path) from systemd (not \(options.socketPath))")
      options.socketPath = passed.path
    }
    self.options = options
    notifier = ServiceNotifier(environment: ProcessInfo.processInfo.environment)
    var group: (name: String, gid: gid_t)?
    if let name = options.allowedGroup {
      guard let entry = getgrnam(name) else { throw UsageError("--allow-group: no group named '\(name)' exists") }
      group = (name, entry.pointee.gr_gid)
    }
    let policy = PeerPolicy(ownerUID: getuid(), allowedGroup: group)
    // A descriptor per client, three per named store (its journal's lock,
    // its segment, its sync's signal), and room for the journal, the
    // workers and the history reads.
    let clients = options.maximumClients + (options.tcpListen == nil ? 0 : options.maximumTCPClients)
    let needed = clients + 3 * options.maximumStores + 512
    let descriptors = DescriptorLimit.raise(to: needed)
    if descriptors < needed - 448 {
      Log.warning(
        (options.tcpListen == nil
          ? "--max-clients \(options.maximumClients)"
          : "--max-clients \(options.maximumClients) and --max-tcp-clients \(options.maximumTCPClients)")
          + " with --max-stores \(options.maximumStores) need about \(needed) file descriptors, and "
          + "the limit is \(descriptors) (ulimit -n, or the unit's LimitNOFILE=): connections past it wait until "
          + "others close, and a store that cannot open its journal is refused")
    }
    try DirectorySetup.create(options.stateDirectory, mode: 0o700)
    try DirectorySetup.checkSafeForState(options.stateDirectory)
    for kind in [WorkerKind.timer, .network] {
      let executable = WorkerProtocol.executable(for: kind, effectworker: options.workerExecutable)
      guard access(executable, X_OK) == 0 else {
        throw SetupError(
          "cannot run the effect worker '\(executable)': \(String(cString: strerror(errno))); "
            + "effectworker and effectworker-network are installed beside \(App.name), or pass --effectworker PATH "
            + "(the network worker is PATH\(WorkerProtocol.networkProgramSuffix))")
      }
    }
    // The app's own worker kinds (HostedApp.workers), checked before anything starts.
    var declared = App.workers
    for index in declared.indices {
      if let program = options.appWorkerPrograms[declared[index].kind] { declared[index].executable = program }
    }
    let appWorkers = try AppWorker.prepare(
      declared, daemonDirectory: WorkerEnvironment.daemonDirectory() ?? ".", stateDirectory: options.stateDirectory)
    let workers = WorkerSupervisor.Configuration(
      executable: options.workerExecutable, stateDirectory: options.stateDirectory,
      environment: WorkerEnvironment.inherited(from: ProcessInfo.processInfo.environment),
      pingInterval: options.workerTimeout / 2, pingTimeout: options.workerTimeout, appWorkers: appWorkers)
    loop = try StoreLoop(
      options: options, workers: workers, dependencies: options.settings.dependencies, notifier: notifier)
    // Only once the state is recovered: a daemon that refuses its state
    // leaves no socket behind.
    let listener =
      if let passed {
        try Listener.adopt(passed.socket, path: passed.path)
      } else {
        try Listener.open(options, group: group)
      }
    listenerPath = listener.path
    do {
      try loop.listen(on: listener, policy: policy)
    } catch {
      listener.close()
      throw error
    }
    if let (host, port) = options.tcpListen, let tokenFile = options.tokenFile {
      let tcp = try TCPListener.open(host: host, port: port, token: try TokenFile.read(tokenFile))
      try loop.listen(on: tcp)
      Log.info("listening on TCP \(tcp.address) too; each client must give the token of \(tokenFile)")
    }
    if let (host, port) = options.metricsListen {
      let endpoint = try MetricsEndpoint(host: host, port: port) { [loop] in Self.scrape(loop) }
      Log.info("serving metrics on http://\(host):\(endpoint.port)/metrics")
      metrics = endpoint
    } else {
      metrics = nil
    }
  }

  /// The loop's metrics, asked of it as a command between its turns; nil
  /// if it has not answered within 10 s (Prometheus' own scrape timeout).
  private static func scrape(_ loop: StoreLoop<App>) -> String? {
    let answer = Mutex<String?>(nil)
    let answered = DispatchSemaphore(value: 0)
    loop.post(
      .metrics { text in
        answer.withLock { $0 = text }
        answered.signal()
      })
    guard answered.wait(timeout: .now() + .seconds(10)) == .success else { return nil }
    return answer.withLock { $0 }
  }

  /// Serves until SIGTERM or SIGINT, then stops cleanly and exits 0.
  func run() -> Never {
    let stopped = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "\(App.name).reload"))
    hangup.setEventHandler { [self] in reload() }
    hangup.resume()
    sources.append(hangup)
    for signal in [SIGTERM, SIGINT] {
      Glibc.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
      source.setEventHandler { stopped.signal() }
      source.resume()
      sources.append(source)
    }
    // The signals are handled before anything is served.
    do {
      try DetachedThread.start(name: "store-loop") { [loop] in
        IssueReporter.$current.withValue(.daemonLog) { loop.run() }
      }
    } catch {
      Log.error("\(error); cannot serve")
      exit(70)
    }
    Log.info("listening on \(listenerPath) (state in \(options.stateDirectory))")
    Log.info(
      "\(App.name) \(App.version): \(options.settings.summary)"
        + (options.configurationFile.map { "; settings from \($0)" } ?? ""))
    stopped.wait()
    notifier.notify(["STOPPING=1", ServiceNotifier.status("stopping")])
    Log.info("stopping: no new connections; answering what is in flight")
    // The loop stops accepting, commits what it reduced and closes the
    // journal; every action it journaled is then acknowledged in its
    // sender's outbox, and it says goodbye to every client. It is waited for
    // however long it takes, so that none goes unanswered.
    let drained = DispatchSemaphore(value: 0)
    loop.post(.shutdown(done: { drained.signal() }))
    while drained.wait(timeout: .now() + .seconds(5)) == .timedOut {
      Log.warning(
        "stopping: the store loop is still busy; waiting for it, so that every action it journals is answered")
    }
    Log.info("stopped")
    exit(0)
  }

  /// SIGHUP: reads the settings file and the environment again and hands the
  /// new feature settings to the store loop; clients stay connected. A file
  /// that does not parse is reported and the settings in use are kept. The
  /// other options (socket, state directory, --fsync, …) are read at start
  /// only: changing them takes a restart.
  private func reload() {
    notifier.notify(["RELOADING=1", "MONOTONIC_USEC=\(MonotonicClock.now() / 1000)"])
    var fresh: DaemonOptions?
    do {
      fresh = try DaemonOptions.parse(arguments, environment: ProcessInfo.processInfo.environment, app: App.self)
    } catch {
      Log.error("reload: \(error); the settings in use are kept")
    }
    // The loop applies them and says READY=1 again (if it had said it).
    let applied = DispatchSemaphore(value: 0)
    loop.post(.reconfigure(fresh?.settings.dependencies, done: { applied.signal() }))
    guard applied.wait(timeout: .now() + .seconds(30)) == .success else {
      Log.warning("reload: the store loop has not taken the new settings after 30 s; they apply once it does")
      return
    }
    guard let fresh else { return }
    Log.info(
      "reloaded the feature settings\(fresh.configurationFile.map { " from \($0)" } ?? ""): \(fresh.settings.summary)")
  }
}

/// The daemon cannot start for a reason in its surroundings (exit status 70).
struct SetupError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
