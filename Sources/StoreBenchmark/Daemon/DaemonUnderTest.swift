import ComposableCore
import Foundation
import Glibc
import JSON
import Platform
import Wire

/// A storedaemon (or a hosted app's daemon, `executable`) started by the
/// benchmark from the release build, in a
/// directory of its own (socket, state, log), told it runs under a service
/// manager so that its `READY=1` marks when it serves.
final class DaemonUnderTest {
  let directory: String
  let socketPath: String
  let stateDirectory: String
  let logPath: String
  private let child: Child
  private let notify: NotifySocket
  /// When the process was spawned and when it said it was ready (``MonotonicClock.now()``).
  let spawnedAt: UInt64
  let readyAt: UInt64

  var pid: pid_t { child.pid }
  /// Whether the daemon is still running.
  var isRunning: Bool { child.isRunning }
  /// Seconds from spawning the process to its `READY=1`.
  var startSeconds: Double { MonotonicClock.seconds(from: spawnedAt, to: readyAt) }

  /// Starts the daemon in `directory` (created if needed; a state directory
  /// already in it is used as it is) and waits until it is ready.
  init(
    binaries: String, executable: String = "storedaemon", directory: String, fsync: String, arguments: [String] = [],
    environment: [String: String] = [:], readyTimeout: Double = 120
  ) throws(BenchError) {
    self.directory = directory
    socketPath = directory + "/d.sock"
    stateDirectory = directory + "/state"
    logPath = directory + "/storedaemon.log"
    try? FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
    notify = try NotifySocket(path: directory + "/notify")
    spawnedAt = MonotonicClock.now()
    child = try Child(
      [
        binaries + "/" + executable, "--socket", socketPath, "--state-dir", stateDirectory, "--fsync", fsync,
        "--log-level", "warning",
      ] + arguments,
      environment: environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 }, output: logPath)
    guard let ready = notify.waitForReady(timeout: readyTimeout) else {
      child.stop(SIGKILL)
      throw BenchError("\(executable) did not become ready within \(Int(readyTimeout)) s; its log: \(logPath)")
    }
    readyAt = ready
  }

  deinit {
    stop()
  }

  /// Reads the daemon's notifications; returns when each watchdog ping came
  /// (a run that lasts minutes must call it, or the daemon's sends block).
  func drainWatchdogPings() -> [UInt64] { notify.drainWatchdogPings() }

  /// Stops the daemon (SIGTERM, as systemd does) and waits for it to exit.
  /// Its notifications are read first, so that its `STOPPING=1` finds room
  /// (it waits up to a second for it).
  func stop() {
    if child.isRunning { _ = notify.drainWatchdogPings() }
    child.stop(SIGTERM)
  }

  /// A new connection that has said hello (for `store`, the default store
  /// when nil) and read the welcome.
  func connect(name: String = "bench", store: StoreName? = nil) throws(BenchError) -> UnixSocket {
    let socket = try UnixSocket.connectForBench(socketPath)
    try socket.writeAll(
      MessageCodec.frame(ClientMessage.hello(protocol: ProtocolVersion.current, client: name, store: store)))
    let welcome = try Frames.next(socket, timeout: 10)
    guard FrameSummary(welcome, 0, welcome.count).type == "welcome" else {
      throw BenchError("expected a welcome, got \(String(decoding: welcome, as: UTF8.self))")
    }
    return socket
  }

  /// A client for the few requests that are not measured (status, get),
  /// of `store` (the default store when nil).
  func client(store: StoreName? = nil) throws(BenchError) -> WireClient {
    do {
      return try WireClient(path: socketPath, clientName: "bench-control", store: store)
    } catch {
      throw BenchError("cannot connect to storedaemon: \(error)")
    }
  }

  /// The daemon process's resident memory in bytes (`VmRSS`), its workers
  /// not included.
  var residentBytes: Int { Self.residentBytes(of: pid) }

  static func residentBytes(of pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({
        Int($0.trimmingCharacters(in: .whitespaces))
      })
    else { return 0 }
    return kilobytes * 1024
  }

  /// The effect worker of `kind` that serves now, from `status`.
  func workerPID(_ kind: String) throws(BenchError) -> pid_t? {
    let control = try client()
    let status: JSONValue
    do {
      status = try control.status()
    } catch {
      throw BenchError("status: \(error)")
    }
    guard case .object(let report) = status, case .array(let workers)? = report["workers"] else { return nil }
    for case .object(let worker) in workers {
      if case .string(kind)? = worker["kind"], case .string("running")? = worker["state"],
        case .int(let pid)? = worker["pid"]
      {
        return pid_t(pid)
      }
    }
    return nil
  }
}

/// Blocking frame reads for the requests around the measured loops.
enum Frames {
  /// The payload of the next frame on `socket` (which must be blocking),
  /// waiting at most `timeout` seconds for each piece.
  static func next(_ socket: UnixSocket, timeout: Double) throws(BenchError) -> [UInt8] {
    let descriptor = socket.descriptor
    let header = try exactly(4, from: descriptor, timeout: timeout)
    let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
    return try exactly(length, from: descriptor, timeout: timeout)
  }

  private static func exactly(_ count: Int, from descriptor: Int32, timeout: Double) throws(BenchError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      guard Readiness.readable(descriptor, milliseconds: Int32(timeout * 1000)) else {
        throw BenchError("storedaemon did not answer within \(timeout) s")
      }
      let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, count - filled) }
      if read < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard read > 0 else { throw BenchError("storedaemon closed the connection") }
      filled += read
    }
    return bytes
  }

  /// The frame of a `send` of the action at `path` (`counter.incrementButtonTapped`).
  static func send(_ path: String, _ arguments: [String] = [], id: Int = 1, wait: Bool = false) -> [UInt8] {
    MessageCodec.frame(ClientMessage.send(id: id, action: .path(path, arguments: arguments), wait: wait))
  }

  static func subscribe(path: String = "", id: Int = 1) -> [UInt8] {
    MessageCodec.frame(ClientMessage.subscribe(id: id, path: path, since: nil))
  }
}
