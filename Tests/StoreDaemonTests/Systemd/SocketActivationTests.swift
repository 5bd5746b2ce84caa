import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing
import Wire

/// Socket activation (sd_listen_fds(3)): storedaemon serves the listening
/// socket systemd passes on file descriptor 3, leaves it in place when it
/// stops, and a restarted daemon serves the connections that waited.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct SocketActivationTests {
  static let activate = "/usr/bin/systemd-socket-activate"

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: activate), "systemd-socket-activate is not installed"))
  func systemdSocketActivateStartsTheDaemonOnTheFirstConnection() throws {
    let directory = try TemporaryDirectory()
    let socketPath = directory.appending("storedaemon.sock")
    // Not Foundation's Process: it takes a child that closes inherited
    // descriptors before exec (as systemd-socket-activate does) for dead, and
    // then blocks waiting for it.
    let activator = try Self.spawn(
      [
        Self.activate, "-l", socketPath, "--fdname=storedaemon",
        DaemonProcess.productsDirectory.appendingPathComponent("storedaemon").path,
        "--state-dir", directory.appending("state"), "--socket", directory.appending("unused.sock"),
      ], standardError: directory.appending("activate.log"))
    var reaped = false
    defer {
      if !reaped {
        kill(activator, SIGKILL)
        _ = Self.wait(activator)
      }
    }
    try waitUntil("systemd-socket-activate listens") { FileManager.default.fileExists(atPath: socketPath) }
    // The first connection starts the daemon, which then answers it.
    let sent = try tcactl(["send", "cart.addItem", "3"], socket: socketPath)
    #expect(sent.status == 0 && sent.output == "accepted: version 1\n", "\(sent)")
    let status = try tcactl(["status", "--json"], socket: socketPath)
    let report = try JSONParser.parse(Array(status.output.utf8))
    #expect(report[path: "socket"] == .string(socketPath))
    #expect(!FileManager.default.fileExists(atPath: directory.appending("unused.sock")))

    kill(activator, SIGTERM)
    #expect(Self.wait(activator) == 0)
    reaped = true
    // The socket is systemd's: the daemon leaves it in place.
    #expect(FileManager.default.fileExists(atPath: socketPath))
  }

  @Test func aRestartedDaemonServesTheConnectionsThatWaitedOnTheSameSocket() throws {
    let directory = try TemporaryDirectory()
    let socketPath = directory.appending("storedaemon.sock")
    // The test plays systemd: it owns the listening socket for the whole test.
    let listening = try UnixSocket.listen(at: socketPath, mode: 0o600)
    defer { listening.close() }

    let first = try Self.spawnActivated(listening, directory: directory)
    try waitUntil("the daemon serves") { (try? WireClient(path: socketPath, clientName: "probe"))?.close() != nil }
    #expect(try tcactl(["send", "counter.incrementButtonTapped"], socket: socketPath).status == 0)
    kill(first, SIGTERM)
    #expect(Self.wait(first) == 0)
    #expect(FileManager.default.fileExists(atPath: socketPath))

    // No daemon runs: a client connects and says hello, and waits in the backlog.
    let waiting = try UnixSocket.connect(to: socketPath)
    defer { waiting.close() }
    try waiting.setReadTimeout(.seconds(20))
    try waiting.write(MessageCodec.frame(ClientMessage.hello(protocol: 1, client: "waiting")))
    try waiting.write(MessageCodec.frame(ClientMessage.get(id: 1, path: "/counter/count")))

    let second = try Self.spawnActivated(listening, directory: directory)
    defer {
      kill(second, SIGTERM)
      _ = Self.wait(second)
    }
    var decoder = FrameDecoder()
    var answers: [ServerMessage] = []
    while answers.count < 2 {
      let bytes = try waiting.read()
      try #require(!bytes.isEmpty, "the restarted daemon closed the waiting connection")
      decoder.append(bytes)
      while let payload = try decoder.nextFrame() { answers.append(try ServerMessage(json: MessageCodec.parse(payload))) }
    }
    guard case .welcome = answers[0] else {
      Issue.record("expected welcome, got \(answers[0])")
      return
    }
    #expect(answers[1] == .state(id: 1, version: 1, path: "/counter/count", value: .int(1)))
  }

  // MARK: Helpers

  /// Starts storedaemon as systemd would: `listening` on descriptor 3,
  /// `LISTEN_PID` its own pid, `LISTEN_FDS=1`, `LISTEN_FDNAMES=storedaemon`.
  static func spawnActivated(_ listening: UnixSocket, directory: TemporaryDirectory) throws -> pid_t {
    let daemon = DaemonProcess.productsDirectory.appendingPathComponent("storedaemon").path
    // The shell's pid is the daemon's once it execs.
    let script = #"export LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=storedaemon; exec "$0" "$@""#
    return try spawn(
      ["/bin/sh", "-c", script, daemon, "--state-dir", directory.appending("state")],
      standardError: directory.appending("stderr.log"), descriptor3: listening)
  }

  /// Starts `arguments[0]` with standard input from /dev/null, standard
  /// output and error to `standardError`, and `descriptor3` (if any) as
  /// file descriptor 3.
  static func spawn(_ arguments: [String], standardError: String, descriptor3: UnixSocket? = nil) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let descriptor3 { posix_spawn_file_actions_adddup2(&actions, descriptor3.descriptor, 3) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, standardError, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard result == 0 else { throw DaemonTestError("posix_spawn \(arguments[0]): \(String(cString: strerror(result)))") }
    return pid
  }

  static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }
}
