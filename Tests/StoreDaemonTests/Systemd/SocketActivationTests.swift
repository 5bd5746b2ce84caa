import ComposableCore
import Foundation
import Glibc
import JSON
import Platform
import TestSupport
import Testing
import Wire

@testable import StoreDaemon

/// Socket activation (sd_listen_fds(3)): storedaemon serves the listening
/// socket systemd passes on file descriptor 3, leaves it in place when it
/// stops, and a restarted daemon serves the connections that waited.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2)))
struct SocketActivationTests {
  static let activate = "/usr/bin/systemd-socket-activate"

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: activate), "systemd-socket-activate is not installed"))
  func systemdSocketActivateStartsTheDaemonOnTheFirstConnection() throws {
    let directory = try TemporaryDirectory()
    let socketPath = directory.appending("storedaemon.sock")
    // Not Foundation's Process: it takes a child that closes inherited
    // descriptors before exec (as systemd-socket-activate does) for dead, and
    // then blocks waiting for it.
    let activator = try SpawnedProcess(
      [
        Self.activate, "-l", socketPath, "--fdname=storedaemon",
        DaemonProcess.productsDirectory.appendingPathComponent("storedaemon").path,
        "--state-dir", directory.appending("state"), "--socket", directory.appending("unused.sock"),
      ], output: directory.appending("activate.log"))
    try waitUntil("systemd-socket-activate listens") { FileManager.default.fileExists(atPath: socketPath) }
    // The first connection starts the daemon, which then answers it.
    let sent = try tcactl(["send", "cart.addItem", "3"], socket: socketPath)
    #expect(sent.status == 0 && sent.output == "accepted: version 1\n", "\(sent)")
    let status = try tcactl(["status", "--json"], socket: socketPath)
    let report = try JSONParser.parse(Array(status.output.utf8))
    #expect(report[path: "socket"] == .string(socketPath))
    #expect(!FileManager.default.fileExists(atPath: directory.appending("unused.sock")))

    #expect(activator.stop() == 0)
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
    defer { _ = first.stop(SIGKILL) }
    try waitUntil("the daemon serves") { (try? WireClient(path: socketPath, clientName: "probe"))?.close() != nil }
    #expect(try tcactl(["send", "counter.incrementButtonTapped"], socket: socketPath).status == 0)
    #expect(first.stop() == 0)
    #expect(FileManager.default.fileExists(atPath: socketPath))

    // No daemon runs: a client connects and says hello, and waits in the backlog.
    let waiting = try UnixSocket.connect(to: socketPath)
    defer { waiting.close() }
    try waiting.write(MessageCodec.frame(ClientMessage.hello(protocol: 1, client: "waiting")))
    try waiting.write(MessageCodec.frame(ClientMessage.get(id: 1, path: "/counter/count")))

    let second = try Self.spawnActivated(listening, directory: directory)
    defer { _ = second.stop() }
    var decoder = FrameDecoder()
    var answers: [ServerMessage] = []
    while answers.count < 2 {
      let bytes = try waiting.read(timeout: eventTimeout)
      try #require(!bytes.isEmpty, "the restarted daemon closed the waiting connection")
      decoder.append(bytes)
      while let payload = try decoder.nextFrame() {
        answers.append(try ServerMessage(json: MessageCodec.parse(payload)))
      }
    }
    guard case .welcome = answers[0] else {
      Issue.record("expected welcome, got \(answers[0])")
      return
    }
    #expect(answers[1] == .state(id: 1, version: 1, path: "/counter/count", value: .int(1)))
  }

  @Test func aPassedSocketThatIsNotListeningStopsTheDaemonWithStatus70() throws {
    let directory = try TemporaryDirectory()
    // A socket, but neither bound nor listening: what a wrong socket unit passes.
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    let unbound = UnixSocket(descriptor: descriptor)
    defer { unbound.close() }
    let daemon = try Self.spawnActivated(unbound, directory: directory)
    #expect(daemon.wait() == 70)
    let log = try String(contentsOfFile: directory.appending("stderr.log"), encoding: .utf8)
    #expect(log.contains("is not a listening Unix stream socket"))
  }

  @Test func nothingIsTakenWhenTheDescriptorsAreForAnotherProcess() throws {
    let environment = ["LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "storedaemon"]
    #expect(try SocketActivation.passedSocket(environment: environment) == nil)
    #expect(try SocketActivation.passedSocket(environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "0"]) == nil)
    #expect(try SocketActivation.passedSocket(environment: [:]) == nil)
  }

  // MARK: Helpers

  /// Starts storedaemon as systemd would: `listening` on descriptor 3,
  /// `LISTEN_PID` its own pid, `LISTEN_FDS=1`, `LISTEN_FDNAMES=storedaemon`.
  static func spawnActivated(_ listening: UnixSocket, directory: TemporaryDirectory) throws -> SpawnedProcess {
    let daemon = DaemonProcess.productsDirectory.appendingPathComponent("storedaemon").path
    // The shell's pid is the daemon's once it execs.
    let script = #"export LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=storedaemon; exec "$0" "$@""#
    return try SpawnedProcess(
      ["/bin/sh", "-c", script, daemon, "--state-dir", directory.appending("state")],
      output: directory.appending("stderr.log"), descriptor3: listening.descriptor)
  }
}
