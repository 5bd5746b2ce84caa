import FoundationEssentials
import Glibc
import Wire

/// What the workers are started with.
enum WorkerEnvironment {
  /// Variables that speak for the daemon's own process to systemd; a worker
  /// that inherited them could send readiness or watchdog pings in its name,
  /// or mistake the daemon's listening sockets for its own.
  static let removed: Set<String> = [
    "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
  ]

  /// The daemon's environment without ``removed``, as `NAME=value` strings,
  /// plus ``WorkerProtocol/daemonPIDVariable`` naming `daemon` (this process):
  /// a worker that finds it dies with the daemon, even stopped or hung. The
  /// signal follows the thread that spawned the worker, which is why only
  /// the store loop's thread spawns them (``WorkerSupervisor``).
  static func inherited(from environment: [String: String], daemon: pid_t = getpid()) -> [String] {
    var environment = environment.filter { !removed.contains($0.key) }
    environment[WorkerProtocol.daemonPIDVariable] = String(daemon)
    return environment.map { "\($0.key)=\($0.value)" }.sorted()
  }

  /// `effectworker` beside the running `storedaemon`, as installed and as built.
  static func defaultExecutable() -> String {
    daemonDirectory().map { $0 + "/effectworker" } ?? "effectworker"
  }

  /// The directory of the running daemon's executable, where its workers and
  /// an app's own worker programs are looked up; nil if it cannot be read.
  static func daemonDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return String(path[..<slash])
  }
}
