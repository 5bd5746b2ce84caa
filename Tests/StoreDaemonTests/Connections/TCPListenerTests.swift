import Foundation
import Glibc
import JSON
import Platform
import TestSupport
import Testing
import Wire

/// The daemon's TCP listener (`--listen-tcp`, `--token-file`), for clients on
/// other machines: every connection gives the token, and it works behind a
/// real TLS terminator, Debian's stunnel4 (docs/OPERATIONS.md, "Clients on
/// other machines").
@Suite(.ownThreads, .serialized)
struct TCPListenerTests {
  static let token = "a-token-of-the-tcp-listener-0123"

  /// A daemon listening on TCP at a port the kernel picked, and that port.
  static func daemon(in directory: TemporaryDirectory) throws -> (DaemonProcess, UInt16) {
    let tokenFile = directory.path + "/token"
    try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
    let daemon = try DaemonProcess(arguments: ["--listen-tcp", "127.0.0.1:0", "--token-file", tokenFile])
    var port: UInt16?
    try waitUntil("the daemon says where it listens on TCP") {
      let said = daemon.standardError
      guard let range = said.range(of: "listening on TCP 127.0.0.1:") else { return false }
      port = UInt16(said[range.upperBound...].prefix { $0.isNumber })
      return port != nil
    }
    return (daemon, port!)
  }

  @Test func aTCPClientMustGiveTheToken() throws {
    let directory = try TemporaryDirectory()
    let (daemon, port) = try Self.daemon(in: directory)
    let address = "tcp://127.0.0.1:\(port)"
    let client = try WireClient(path: address, clientName: "remote", token: Self.token)
    #expect(try client.send(path: "counter.incrementButtonTapped") == 1)
    #expect(try client.get(path: "/counter/count").value == .int(1))
    for (token, says) in [(nil, "none was given"), ("a-wrong-token-of-the-right-size", "is not it")] {
      let refused = Result { () throws(ClientError) in try WireClient(path: address, clientName: "x", token: token) }
      guard case .failure(.rejected(let code, let message)) = refused else {
        Issue.record("a hello with token \(token ?? "none") was not refused: \(refused)")
        continue
      }
      #expect(code == .forbidden)
      #expect(message.contains("--token-file") && message.contains(says))
    }
    // The Unix socket is as before: its peer's user, no token.
    #expect(try daemon.client().send(path: "counter.incrementButtonTapped") == 2)
    #expect(try client.get(path: "/counter/count").value == .int(2))
  }

  @Test func aTCPListenerNeedsATokenFile() throws {
    let refused = try runProduct("storedaemon", ["--listen-tcp", "127.0.0.1:0", "--socket", "/tmp/unused.sock"])
    #expect(refused.status == 64)
    #expect(refused.error.contains("--listen-tcp needs --token-file"))
  }

  @Test(.enabled(if: access("/usr/bin/stunnel4", X_OK) == 0, "stunnel4 is installed by .ci/run"))
  func tcactlReachesTheDaemonThroughStunnelsTLS() throws {
    let directory = try TemporaryDirectory()
    // Held to the end: the daemon stops when its process object goes.
    let (daemon, port) = try Self.daemon(in: directory)
    defer { withExtendedLifetime(daemon) {} }
    let path = directory.path
    let made = try runCommand(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout",
        path + "/key.pem", "-out", path + "/cert.pem",
      ])
    try #require(made == 0, "openssl made the certificate")
    // The daemon's machine: TLS in, the daemon's TCP listener out. The
    // client's machine: a local port, TLS out, the server's certificate
    // pinned.
    let tlsPort = try Self.freePort()
    let localPort = try Self.freePort()
    let server = """
      foreground = yes
      pid =
      [storedaemon]
      accept = 127.0.0.1:\(tlsPort)
      connect = 127.0.0.1:\(port)
      cert = \(path)/cert.pem
      key = \(path)/key.pem
      """
    let client = """
      foreground = yes
      pid =
      [storedaemon]
      client = yes
      accept = 127.0.0.1:\(localPort)
      connect = 127.0.0.1:\(tlsPort)
      CAfile = \(path)/cert.pem
      verifyPeer = yes
      """
    let terminators = try [("server", server), ("client", client)].map { name, text in
      try text.write(toFile: "\(path)/\(name).conf", atomically: true, encoding: .utf8)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/stunnel4")
      process.arguments = ["\(path)/\(name).conf"]
      process.standardError = FileHandle(forWritingAtPath: "/dev/null")
      try process.run()
      return process
    }
    defer {
      // SIGKILL: stunnel4 in the foreground does not end on SIGTERM.
      for process in terminators where process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
    let tokenFile = path + "/token"
    var sent: (status: Int32, output: String, error: String) = (0, "", "")
    try waitUntil("tcactl reaches the daemon through both stunnels") {
      sent = try tcactl(
        ["send", "counter.incrementButtonTapped"], socket: "tcp://127.0.0.1:\(localPort)",
        environment: ["TCA_TOKEN_FILE": tokenFile])
      return sent.status == 0
    }
    #expect(sent.output.contains("accepted: version 1"))
    let read = try tcactl(
      ["--token-file", tokenFile, "get", "counter.count"], socket: "tcp://127.0.0.1:\(localPort)")
    #expect(read.status == 0)
    #expect(read.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    // Without the token, the daemon refuses, through TLS as directly.
    let refused = try tcactl(["status"], socket: "tcp://127.0.0.1:\(localPort)")
    #expect(refused.status == 1)
    #expect(refused.error.contains("--token-file"))
  }

  /// A TCP port free on 127.0.0.1 now (the kernel's pick, released).
  static func freePort() throws -> UInt16 {
    let (descriptor, port) = try SocketCalls.listenOnLoopback()
    close(descriptor)
    return port
  }
}

/// Runs `executable` with `arguments` to its end; its exit status.
private func runCommand(_ executable: String, _ arguments: [String]) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
  process.standardError = FileHandle(forWritingAtPath: "/dev/null")
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}
