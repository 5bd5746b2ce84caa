import ComposableCore
import Dispatch
import Glibc
import Platform
import TestSupport
import Testing
import Wire

@testable import SeedApps
@testable import StoreDaemon

/// What a test's clients need of a serving daemon: its socket.
protocol ServingDaemon: AnyObject {
  var socketPath: String { get }
  /// Whom the test's clients accept as the daemon.
  var daemonUser: DaemonUser { get }
}

extension ServingDaemon {
  /// A connected client.
  func client(_ name: String = "test") throws -> WireClient {
    try WireClient(path: socketPath, clientName: name, handshakeTimeout: eventTimeout, daemonUser: daemonUser)
  }

  /// A raw socket, for speaking bytes that no well-behaved client would.
  func rawSocket() throws -> UnixSocket {
    try UnixSocket.connect(to: socketPath)
  }
}

extension DaemonProcess: ServingDaemon {}

/// `storedaemon`'s store loop in this process, on a thread of its own,
/// serving a real Unix socket in a fresh temporary directory: what a
/// ``DaemonProcess`` gives a test's clients, without starting a process.
///
/// It is the daemon's own code from the command line on (`DaemonOptions`,
/// recovery, the listener, ``StoreLoop``), but for the effect workers: none
/// runs, so an effect fails at once, saying that no worker of its kind runs
/// here. For what the loop does with clients: frames, handshakes, limits,
/// refusals, slow readers. What only a process shows (signals, `kill -9`,
/// exit statuses, the workers, the log on standard error, memory) stays
/// with ``DaemonProcess``.
final class LoopDaemon: ServingDaemon {
  /// The temporary directory holding the socket and the state.
  let directory: String
  private let temporary: TemporaryDirectory
  let socketPath: String
  let stateDirectory: String
  let daemonUser = DaemonUser.standard
  private let loop: StoreLoop<SeedApps>
  /// The TCP listener's port, with `--listen-tcp`.
  private(set) var tcpPort: UInt16?
  private let stopped = DispatchSemaphore(value: 0)
  private var isStopped = false

  /// A daemon started with `arguments`, as `storedaemon` takes them (its
  /// socket and state directory are the temporary directory's).
  init(arguments: [String] = []) throws {
    temporary = try TemporaryDirectory(prefix: "loop-daemon")
    directory = temporary.path
    socketPath = temporary.appending("run/storedaemon.sock")
    stateDirectory = temporary.appending("state")
    let options = try DaemonOptions.parse(
      ["--socket", socketPath, "--state-dir", stateDirectory] + arguments, environment: [:], app: SeedApps.self)
    try DirectorySetup.create(options.stateDirectory, mode: 0o700)
    var workers = WorkerSupervisor.Configuration(
      executable: "/nonexistent/effectworker", stateDirectory: options.stateDirectory, environment: [])
    workers.builtInKinds = []
    loop = try StoreLoop(
      options: options, workers: workers, dependencies: options.settings.dependencies,
      notifier: ServiceNotifier(environment: [:]))
    let listener = try Listener.open(options, group: nil)
    do {
      try loop.listen(on: listener, policy: PeerPolicy(ownerUID: getuid(), allowedGroup: nil))
    } catch {
      listener.close()
      throw error
    }
    if let (host, port) = options.tcpListen, let tokenFile = options.tokenFile {
      let tcp = try TCPListener.open(host: host, port: port, token: try TokenFile.read(tokenFile))
      tcpPort = tcp.address.split(separator: ":").last.flatMap { UInt16($0) }
      try loop.listen(on: tcp)
    }
    try DetachedThread.start(name: "store-loop") { [loop, stopped] in
      IssueReporter.$current.withValue(.daemonLog) { loop.run() }
      stopped.signal()
    }
  }

  deinit {
    stop()
  }

  /// Stops the loop as SIGTERM stops the daemon: every client is answered,
  /// then told goodbye, and the journal is closed.
  func stop() {
    guard !isStopped else { return }
    isStopped = true
    loop.post(.shutdown(done: {}))
    if stopped.wait(timeout: .now() + .seconds(120)) == .timedOut {
      Issue.record("the store loop did not stop within two minutes")
    }
  }
}
