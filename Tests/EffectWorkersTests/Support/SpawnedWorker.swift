import ComposableCore
import Foundation
import Glibc
import Platform
import TestSupport
import Wire

/// A real worker process (`effectworker`, or `effectworker-network` for the
/// network kind, or an app's own worker program), started as the daemon starts it (with ``ConnectedChild``, its
/// socket on descriptor 3), for a test to speak frames to.
///
/// Its standard output and error go to a log file in the test's directory,
/// never to a pipe. Whatever the test does, the process is killed and reaped
/// when the test lets go of it.
final class SpawnedWorker {
  /// The program serving `kind`, built beside the test bundle.
  static func executable(for kind: WorkerKind) -> String {
    built(WorkerProtocol.programName(for: kind))
  }

  /// The program named `name`, built beside the test bundle.
  static func built(_ name: String) -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
  }

  let kind: WorkerKind
  let pid: pid_t
  let socket: UnixSocket
  let logPath: String
  /// The worker's `ready` event.
  private(set) var ready: WorkerEvent?
  private var decoder = FrameDecoder(maximum: WorkerProtocol.maximumFrame)
  private var outcome: ProcessOutcome?
  private var socketClosed = false

  /// Starts a worker of `kind` with `arguments` after `--kind`, logging to a
  /// file in `directory`, and waits for its `ready`.
  convenience init(_ kind: WorkerKind, arguments: [String] = [], in directory: TemporaryDirectory) throws {
    try self.init(
      kind: kind, executable: Self.executable(for: kind), arguments: ["--kind", kind.rawValue] + arguments,
      environment: ["PATH=/usr/bin:/bin"], in: directory)
  }

  /// Starts `executable`, a worker program serving `kind` (an app's own, in
  /// any language), with `arguments` and `environment` (`NAME=value`),
  /// logging to a file in `directory`, and waits for its `ready`.
  init(
    kind: WorkerKind, executable: String, arguments: [String], environment: [String], in directory: TemporaryDirectory
  ) throws {
    self.kind = kind
    logPath = directory.appending("\(kind.rawValue)-\(UInt32.random(in: 0...UInt32.max)).log")
    let child = try ConnectedChild.spawn(
      executable: executable, arguments: arguments, environment: environment,
      socketDescriptor: WorkerProtocol.socketDescriptor, outputPath: logPath)
    pid = child.pid
    socket = child.socket
    ready = try next()
  }

  deinit {
    if !socketClosed { socket.close() }
    if outcome == nil {
      kill(pid, SIGKILL)
      _ = ProcessOutcome.wait(for: pid, timeout: .seconds(10))
    }
  }

  /// What the worker wrote to standard error.
  var log: String {
    (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
  }

  func send(_ command: WorkerCommand) throws {
    try socket.write(WorkerProtocol.frame(command))
  }

  func send(_ commands: [WorkerCommand]) throws {
    try socket.write(commands.flatMap { try WorkerProtocol.frame($0) })
  }

  /// Writes bytes no daemon would send.
  func sendRaw(_ bytes: [UInt8]) throws {
    try socket.write(bytes)
  }

  /// The next event, waiting at most `timeout`.
  func next(timeout: Duration = .seconds(60)) throws -> WorkerEvent {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let payload = try decoder.nextFrame() { return try WorkerEvent(payload: payload) }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else {
        throw WorkerTestError("the \(kind.rawValue) worker sent nothing within \(timeout); its log:\n\(log)")
      }
      var descriptor = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(clamping: Int((remaining / .milliseconds(1)).rounded(.up)))
      guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
      let bytes = try socket.read()
      if bytes.isEmpty {
        throw WorkerTestError("the \(kind.rawValue) worker closed its socket; its log:\n\(log)")
      }
      decoder.append(bytes)
    }
  }

  /// The next reply, as (id, reply); fails on any other event.
  func reply(timeout: Duration = .seconds(60)) throws -> (id: EffectID, reply: EffectReply) {
    let event = try next(timeout: timeout)
    guard case .reply(let id, let reply) = event else { throw WorkerTestError("expected a reply, got \(event)") }
    return (id, reply)
  }

  /// Sends `start` (for the store `store`, nil for the default one) and
  /// returns the reply to it, which must come next.
  func perform(
    _ request: EffectRequest, id: EffectID, store: StoreName? = nil, timeout: Duration = .seconds(60)
  ) throws -> EffectReply {
    try send(.start(id: id, request: request, store: store))
    let (repliedID, reply) = try self.reply(timeout: timeout)
    guard repliedID == id else {
      throw WorkerTestError("expected the reply to \(id), got one to \(repliedID): \(reply)")
    }
    return reply
  }

  /// Sends `ping` `id` and returns every event before its `pong`: once it
  /// arrives, the worker has taken every command sent before it.
  func eventsBeforePong(_ id: Int, timeout: Duration = .seconds(60)) throws -> [WorkerEvent] {
    try send(.ping(id: id))
    var events: [WorkerEvent] = []
    while true {
      let event = try next(timeout: timeout)
      if event == .pong(id: id) { return events }
      events.append(event)
    }
  }

  /// Closes the test's end of the socket, as a daemon that exits (or is
  /// killed) does.
  func closeSocket() {
    guard !socketClosed else { return }
    socketClosed = true
    socket.close()
  }

  /// Waits for the worker to exit and reaps it; nil if it is still running
  /// after `timeout`.
  func waitForExit(timeout: Duration = .seconds(60)) -> ProcessOutcome? {
    if let outcome { return outcome }
    outcome = ProcessOutcome.wait(for: pid, timeout: timeout)
    return outcome
  }
}
