import Foundation
import Glibc
import TestSupport
import Testing
import Wire

/// The socket is only as safe as every directory above it: the daemon
/// refuses a path another user could change, and a client refuses a daemon
/// that runs as a user it does not expect.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct SocketOwnershipTests {
  /// Only the socket's own directory used to be checked.
  @Test func aSocketBelowADirectoryOthersMayWriteToIsRefusedNamingIt() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-owner")
    let open = scratch.appending("open")
    #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
    #expect(mkdir(open + "/sub", 0o700) == 0)
    let socket = open + "/sub/s.sock"
    let start = try RefusedStart(["--socket", socket, "--state-dir", scratch.appending("state")], socket: socket)
    #expect(start.status == 70, "\(start.standardError)")
    #expect(
      start.standardError.contains("\(open), above it: others may write to it (mode 0777"), "\(start.standardError)")
  }

  /// The fault hunt's case: `evil` belongs to another user, who could rename
  /// `sub` and serve an impostor at the same path.
  @Test(.enabled(if: geteuid() == 0, "giving a directory to another user needs root"))
  func aSocketBelowADirectoryOfAnotherUserIsRefusedNamingIt() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-owner")
    let evil = scratch.appending("evil")
    #expect(mkdir(evil, 0o755) == 0 && chown(evil, 65534, 65534) == 0)
    #expect(mkdir(evil + "/sub", 0o700) == 0)
    let socket = evil + "/sub/s.sock"
    let start = try RefusedStart(["--socket", socket, "--state-dir", scratch.appending("state")], socket: socket)
    #expect(start.status == 70, "\(start.standardError)")
    #expect(start.standardError.contains("\(evil), above it: it belongs to"), "\(start.standardError)")
    #expect(start.standardError.contains("(uid 65534), mode 0755"), "\(start.standardError)")
  }

  /// Sticky directories writable by all (/tmp) and the usual private ones
  /// are accepted: every test's daemon lives under /tmp.
  @Test func aSocketBelowTheStickyTmpIsAccepted() throws {
    let daemon = try DaemonProcess()
    #expect(try tcactl(["status"], socket: daemon.socketPath).status == 0)
  }

  @Test func tcactlRefusesADaemonOfAnotherUserThanTheOneNamed() throws {
    let daemon = try DaemonProcess()
    let other: uid_t = getuid() == 65534 ? 65533 : 65534
    let refused = try tcactl(["status", "--daemon-user", "\(other)"], socket: daemon.socketPath)
    #expect(refused.status == 69, "\(refused)")
    #expect(
      refused.error.contains("refusing the process listening at \(daemon.socketPath) (pid \(daemon.pid))"),
      "\(refused.error)")
    #expect(refused.error.contains("(uid \(getuid())), not as"), "\(refused.error)")
    #expect(refused.error.contains("(uid \(other))") || refused.error.contains("uid \(other)"), "\(refused.error)")
    #expect(refused.error.contains("it may be an impostor"), "\(refused.error)")
    #expect(refused.output.isEmpty)

    let fromEnvironment = try tcactl(
      ["status"], socket: daemon.socketPath, environment: ["TCA_DAEMON_USER": "\(other)"])
    #expect(fromEnvironment.status == 69, "\(fromEnvironment)")
    #expect(try tcactl(["status", "--daemon-user", "\(getuid())"], socket: daemon.socketPath).status == 0)

    let unknown = try tcactl(["status", "--daemon-user", "no-such-user-here"], socket: daemon.socketPath)
    #expect(unknown.status == 2, "\(unknown)")
    #expect(unknown.error.contains("--daemon-user needs a user name or uid"), "\(unknown.error)")
  }

  /// An impostor of another user at the socket's path: a real storedaemon
  /// run as nobody. tcactl, as root, refuses it unless told that nobody is
  /// the daemon's user.
  @Test(.enabled(if: geteuid() == 0, "running a daemon as another user needs root"))
  func tcactlRefusesAnImpostorServedByAnotherUser() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-impostor")
    #expect(chmod(scratch.path, 0o755) == 0)
    let run = scratch.appending("run")
    let state = scratch.appending("state")
    for directory in [run, state] {
      #expect(mkdir(directory, 0o700) == 0 && chown(directory, 65534, 65534) == 0)
    }
    let socket = run + "/s.sock"
    let storedaemon = DaemonProcess.productsDirectory.appendingPathComponent("storedaemon").path
    let impostor = try SpawnedProcess(
      [
        "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", storedaemon, "--socket", socket,
        "--state-dir", state,
      ],
      output: scratch.appending("impostor.log"))
    defer { _ = impostor.stop() }
    let said = { (try? String(contentsOfFile: scratch.appending("impostor.log"), encoding: .utf8)) ?? "" }
    var last: (status: Int32, output: String, error: String)?
    try waitUntil("the impostor serves (tcactl's last try: \(last.map { "\($0)" } ?? "none"); it said: \(said()))") {
      guard impostor.isRunning else { throw DaemonTestError("the impostor exited: \(said())") }
      last = try tcactl(["status", "--daemon-user", "nobody"], socket: socket)
      return last?.status == 0
    }

    let refused = try tcactl(["status"], socket: socket)
    #expect(refused.status == 69, "\(refused)")
    #expect(refused.error.contains("(uid 65534), not as"), "\(refused.error)")
    #expect(refused.error.contains("--daemon-user 65534"), "\(refused.error)")
    #expect(refused.output.isEmpty)
    #expect(try tcactl(["status", "--daemon-user", "65534"], socket: socket).status == 0)
  }
}
