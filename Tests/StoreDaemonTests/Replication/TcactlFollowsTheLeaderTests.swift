import Dispatch
import Foundation
import Glibc
import JSON
import Platform
import Synchronization
import TestSupport
import Testing
import Wire

@testable import tcactl

/// `tcactl --socket A,B,…` against the daemons of one replicated store: reads
/// go to the first socket that answers, sends follow the leader through a
/// failover, and a send nobody answered is not sent again (docs/CLI.md,
/// "Several sockets").
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(5)))
struct TcactlFollowsTheLeaderTests {
  @Test func theSocketListIsSplitAtCommas() throws {
    #expect(DaemonAddress.socketPaths("/a.sock") == ["/a.sock"])
    #expect(DaemonAddress.socketPaths("/a.sock,/b.sock") == ["/a.sock", "/b.sock"])
    #expect(DaemonAddress.socketPaths(" /a.sock , /b.sock,/a.sock") == ["/a.sock", "/b.sock"])
    for empty in ["", ",", "/a.sock,", "/a.sock,,/b.sock", " , /b.sock"] {
      #expect(DaemonAddress.socketPaths(empty) == nil, "'\(empty)'")
    }

    let given = try Invocation.parse(["--socket", "/a.sock,/b.sock", "send", "cart.addItem", "3"], environment: [:])
    #expect(given.socketPaths == ["/a.sock", "/b.sock"])
    let fromEnvironment = try Invocation.parse(["status"], environment: ["TCA_SOCKET": "/a.sock, /b.sock"])
    #expect(fromEnvironment.socketPaths == ["/a.sock", "/b.sock"])
    // --socket wins over the environment.
    let both = try Invocation.parse(["--socket=/c.sock", "status"], environment: ["TCA_SOCKET": "/a.sock,/b.sock"])
    #expect(both.socketPaths == ["/c.sock"])
    #expect(try Invocation.parse(["status"], environment: [:]).socketPaths.count == 1)

    #expect {
      try Invocation.parse(["--socket", "/a.sock,,/b.sock", "get"], environment: [:])
    } throws: { error in
      (error as? UsageError)?.description
        == "--socket needs \(Option.socket.valueDescription!); got '/a.sock,,/b.sock'"
    }
    #expect {
      try Invocation.parse(["get"], environment: ["TCA_SOCKET": "/a.sock,"])
    } throws: { error in
      (error as? UsageError)?.description == "TCA_SOCKET needs \(Option.socket.valueDescription!); got '/a.sock,'"
    }
    // Help does not connect, so it does not mind.
    _ = try Invocation.parse(["get", "--help"], environment: ["TCA_SOCKET": "/a.sock,"])
  }

  @Test(.enabled(if: EtcdCluster.isInstalled, "etcd is installed by .ci/run (etcd-server)"))
  func aSendReachesTheLeaderBeforeAndAfterAFailover() throws {
    let cluster = try EtcdCluster()
    let first = try DaemonProcess(arguments: replicated(cluster, node: "first"))
    try waitUntil("the first daemon leads") { role(of: first) == "leading" }
    let second = try DaemonProcess(arguments: replicated(cluster, node: "second"))
    try waitUntil("the second daemon follows the first") {
      guard let replication = replication(of: second) else { return false }
      return replication[path: "role"] == .string("following")
        && replication[path: "leader", "socket"] == .string(first.socketPath)
    }
    let standbyFirst = "\(second.socketPath),\(first.socketPath)"

    // Reads go to the first socket that answers: the standby.
    let status = try tcactl(["status", "--json"], socket: standbyFirst)
    #expect(status.status == 0, "\(status.error)")
    #expect(try JSONParser.parse(Array(status.output.utf8))[path: "socket"] == .string(second.socketPath))
    let shown = try tcactl(["status"], socket: standbyFirst).output
    #expect(shown.contains("replication\n  store    follow\n  role     following\n"), "\(shown)")
    #expect(shown.contains("\n  leader   first (\(first.socketPath))\n"), "\(shown)")

    // The standby refuses the send, naming the leader, which is in the list.
    let sent = try tcactl(["send", "counter.incrementButtonTapped"], socket: standbyFirst)
    #expect(sent.status == 0, "\(sent.error)")
    #expect(sent.output.hasPrefix("accepted: version "))
    #expect(try first.client().get(path: "/counter/count").value == .int(1))

    // Alone, the standby's refusal is the answer.
    let alone = try tcactl(["send", "counter.incrementButtonTapped"], socket: second.socketPath)
    #expect(alone.status == 1)
    #expect(alone.error.contains("send it to the leader, first, at \(first.socketPath)"), "\(alone.error)")
    // A leader outside the list is not looked for: each socket says why.
    let missing = second.directory + "/missing.sock"
    let elsewhere = try tcactl(["send", "counter.incrementButtonTapped"], socket: "\(second.socketPath),\(missing)")
    #expect(elsewhere.status == 1)
    #expect(
      elsewhere.error.hasPrefix(
        "tcactl: the action was not applied: the store's leader is at none of the sockets given:\n"))
    #expect(elsewhere.error.contains("\n  \(second.socketPath): "), "\(elsewhere.error)")
    #expect(elsewhere.error.contains(first.socketPath), "\(elsewhere.error)")
    #expect(elsewhere.error.contains("\n  \(missing): no storedaemon is running at \(missing)"), "\(elsewhere.error)")
    #expect(try first.client().get(path: "/counter/count").value == .int(1))

    // A watch on the leader, which moves to the standby when the leader dies.
    let watch = try BackgroundTcactl(
      ["watch", "counter"], socket: "\(first.socketPath),\(second.socketPath)",
      outputPath: second.directory + "/watch.out")
    try watch.waitForLine("the watched state") { $0.contains("\"count\": 1") }
    try waitUntil("the standby holds the first count") {
      (try? second.client().get(path: "/counter/count").value) == .int(1)
    }

    kill(first.pid, SIGKILL)
    first.process.waitUntilExit()
    // The same command, the list in the same order: the standby names the
    // dead leader, then none, then takes over. Refused everywhere, nothing
    // was applied, so a send that ran out of time may be sent again.
    var refusals: [String] = []
    var accepted: (status: Int32, output: String, error: String)?
    try waitUntil("the send reaches the new leader") {
      let result = try tcactl(["send", "counter.incrementButtonTapped"], socket: standbyFirst)
      if result.status == 0 {
        accepted = result
        return true
      }
      #expect(result.status == 1, "\(result.error)")
      #expect(result.error.contains("no daemon of the store took it within"), "\(result.error)")
      refusals.append(result.error)
      return false
    }
    #expect(accepted?.output.hasPrefix("accepted: version ") == true)
    #expect(role(of: second) == "leading")
    // Applied once, on top of what the old leader acknowledged.
    #expect(try second.client().get(path: "/counter/count").value == .int(2), "refused before: \(refusals)")

    // The watch went on at the new leader, after the version it had shown.
    let lines = try watch.waitForLine("the change made on the new leader") { $0.contains("~ /count: 1 → 2") }
    #expect(lines.contains { $0.hasPrefix("resuming after version ") }, "\(lines)")
    #expect(!lines.contains { $0.contains("~ /count: 0 → 1") }, "a change shown twice: \(lines)")
  }

  /// A send whose connection ends before its answer may have been applied:
  /// it is reported so, and not sent to the next socket.
  @Test func aSendWithNoAnswerIsNotSentAgain() throws {
    let daemon = try DaemonProcess()
    let fake = FakeDaemon(path: daemon.directory + "/fake.sock")
    defer { fake.stop() }
    try fake.start()
    let result = try tcactl(["send", "counter.incrementButtonTapped"], socket: "\(fake.path),\(daemon.socketPath)")
    #expect(result.status == 69)
    #expect(result.error.contains("which may or may not have been applied"), "\(result.error)")
    fake.wait()
    #expect(fake.received.contains { $0.contains("counter") && $0.contains("\"send\"") }, "\(fake.received)")
    #expect(try daemon.client().get(path: "/counter/count").value == .int(0))
  }
}

/// A daemon's arguments for the store `follow` of `cluster`, as node `node`.
private func replicated(_ cluster: EtcdCluster, node: String) -> [String] {
  ["--replicate", cluster.url, "--store-id", "follow", "--node-name", node, "--lease-ttl", "2"]
}

/// The daemon's replication status, nil when it does not answer.
private func replication(of daemon: DaemonProcess) -> JSONValue? {
  guard daemon.process.isRunning, let client = try? daemon.client("probe"), let report = try? client.status() else {
    return nil
  }
  return report[path: "replication"]
}

/// `leading` or `following`, once the daemon says.
private func role(of daemon: DaemonProcess) -> String? {
  guard case .string(let role)? = replication(of: daemon)?[path: "role"] else { return nil }
  return role
}

/// A socket that welcomes one client, reads its next request and hangs up
/// without answering, as a daemon killed at that moment would.
private final class FakeDaemon: Sendable {
  let path: String
  private let listener = Mutex<UnixSocket?>(nil)
  private let frames = Mutex<[String]>([])
  private let done = DispatchSemaphore(value: 0)

  init(path: String) {
    self.path = path
  }

  /// The frames the client sent, as text.
  var received: [String] { frames.withLock { $0 } }

  func start() throws {
    let listener = try UnixSocket.listen(at: path, mode: 0o600)
    self.listener.withLock { $0 = listener }
    DispatchQueue.global().async { [self] in
      defer { done.signal() }
      guard let connection = try? listener.accept() else { return }
      defer { connection.close() }
      var decoder = FrameDecoder()
      while frames.withLock({ $0.count }) < 2 {
        guard let bytes = try? connection.read(timeout: eventTimeout), !bytes.isEmpty else { return }
        decoder.append(bytes)
        while let payload = try? decoder.nextFrame() {
          frames.withLock { $0.append(String(decoding: payload, as: UTF8.self)) }
          if frames.withLock({ $0.count }) == 1 {
            try? connection.write(
              MessageCodec.frame(ServerMessage.welcome(protocol: 1, server: "fake 0", version: 0, epoch: "fake")))
          }
        }
      }
    }
  }

  /// Waits until the client has been served.
  func wait() {
    _ = done.wait(timeout: .now() + .seconds(60))
  }

  /// Lets a listener nobody connected to go.
  func stop() {
    if received.isEmpty, let client = try? UnixSocket.connect(to: path) { client.close() }
    listener.withLock { $0?.close() }
  }
}
