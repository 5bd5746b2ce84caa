import Foundation
import Glibc
import Platform
import TestSupport
import Testing
import Wire

/// Connections that never speak, or whose clients have gone, do not keep
/// the `--max-clients` slots from clients that speak.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ConnectionSlotsTests {
  @Test func connectionsSilentBeforeHelloCannotTakeTheSlotsOfClientsThatSpeak() throws {
    let daemon = try DaemonProcess(arguments: ["--max-clients", "8", "--handshake-timeout", "3600"])
    let greeted = try (0..<3).map { try daemon.client("greeted \($0)") }
    let silent = try (0..<20).map { _ in try RawConnection(daemon) }
    for index in 0..<5 {
      let late = try daemon.client("late \(index)")
      #expect(try late.status() != .null)
      late.close()
    }
    for client in greeted { #expect(try client.status() != .null, "a client that said hello keeps its slot") }
    // The silent connection waiting longest was closed, with the reason.
    guard case .error(nil, .timeout, let message)? = try silent[0].read() else {
      Issue.record("the oldest silent connection must be closed with a timeout error")
      return
    }
    #expect(message.contains("at most 4 connections may wait for their hello"), "\(message)")
  }

  /// The TCP listener's connections have slots of their own
  /// (`--max-tcp-clients`): a flood of silent TCP connections evicts and
  /// refuses only TCP connections, never a local client, whether it waits
  /// for its hello or has said it.
  @Test func aFloodOverTCPNeverTakesALocalClientsSlot() throws {
    let directory = try TemporaryDirectory()
    let tokenFile = directory.appending("token")
    let token = "a-token-of-the-tcp-listener-0123"
    try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
    let daemon = try LoopDaemon(arguments: [
      "--max-clients", "4", "--max-tcp-clients", "4", "--handshake-timeout", "3600", "--listen-tcp", "127.0.0.1:0",
      "--token-file", tokenFile,
    ])
    let port = try #require(daemon.tcpPort)
    let greeted = try (0..<2).map { try daemon.client("local \($0)") }
    // A local connection still waiting for its hello when the flood comes.
    let waitingLocal = try RawConnection(daemon)
    var flood: [Int32] = []
    defer { for descriptor in flood { close(descriptor) } }
    for _ in 0..<40 { flood.append(try SocketCalls.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))) }
    // Every TCP connection has been taken in and evicted, or refused, by the
    // time a TCP client that speaks is served.
    let remote = try WireClient(path: "tcp://127.0.0.1:\(port)", clientName: "remote", token: token)
    #expect(try remote.send(path: "counter.incrementButtonTapped") == 1)
    try waitingLocal.send(#"{"type":"hello","protocol":1,"client":"waiting local"}"#)
    guard case .welcome? = try waitingLocal.read() else {
      Issue.record("the local connection waiting for its hello must not be evicted by TCP connections")
      return
    }
    for client in greeted { #expect(try client.status() != .null, "a local client keeps its slot") }
    // The last local slot is free for another local client.
    #expect(try daemon.client("local 3").send(path: "counter.incrementButtonTapped") == 2)
    // What the flood got: closed for another's room, or refused, naming the TCP limit.
    var buffer = [UInt8](repeating: 0, count: 4096)
    guard case .ready = SocketCalls.wait(for: Int16(POLLIN), on: flood[0], orStop: -1, timeout: .seconds(60)) else {
      Issue.record("the oldest TCP connection was neither evicted nor refused")
      return
    }
    let said = String(decoding: buffer[..<max(0, recv(flood[0], &buffer, buffer.count, 0))], as: UTF8.self)
    #expect(said.contains("half of --max-tcp-clients") || said.contains("(--max-tcp-clients)"), "\(said)")
  }

  /// A client that pipelines more requests than the daemon reads ahead and
  /// closes while the store loop is busy: its connection closes without
  /// waiting for the loop.
  @Test func closedClientsFreeTheirSlotsWhileTheStoreLoopIsBusy() throws {
    let daemon = try DaemonProcess(
      arguments: ["--max-clients", "64"], environment: ["STOREDAEMON_DEBUG_STALL": "counter.decrementButtonTapped:3600"]
    )
    let staller = try daemon.client("staller")
    _ = try staller.post { .send(id: $0, action: .path("counter.decrementButtonTapped", arguments: [])) }
    try waitUntil("the store loop stalls") { daemon.standardError.contains("stalling the store loop") }
    let before = Self.openDescriptors(daemon.pid)
    var requests = try FrameEncoder.frame(Array(#"{"type":"hello","protocol":1,"client":"gone"}"#.utf8))
    for id in 1...100 {
      requests += try FrameEncoder.frame(Array(#"{"type":"status","id":\#(id)}"#.utf8))
    }
    for _ in 0..<8 {
      let socket = try daemon.rawSocket()
      try socket.write(requests)
      socket.close()
    }
    try waitUntil("the closed clients' connections are closed, while the loop is still stalled") {
      Self.openDescriptors(daemon.pid) <= before
    }
  }

  /// Out of descriptors, the daemon does not stop accepting: a new
  /// connection waits in the listener's queue while the daemon says why,
  /// the clients it has are still served, and once descriptors are free
  /// again the waiting connection is accepted and served.
  @Test func outOfDescriptorsTheDaemonWaitsAndThenAcceptsAgain() throws {
    let daemon = try DaemonProcess()
    let served = try daemon.client("served")
    let limits = try String(contentsOfFile: "/proc/\(daemon.pid)/limits", encoding: .utf8)
    let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
    let softLimit = try #require(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first)
    // A new descriptor takes the lowest free number, which the limit now
    // forbids: accepting one more fails with EMFILE.
    let open = Set(
      try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").compactMap { Int($0) })
    let lowestFree = (0...).first { !open.contains($0) }!
    try limitOpenFiles(of: daemon.pid, to: "\(lowestFree)")
    let waiting = try RawConnection(daemon)
    try waiting.send(#"{"type":"hello","protocol":1,"client":"waiting"}"#)
    try waitUntil("the daemon says it is out of descriptors") {
      daemon.standardError.contains("accepting again in 100 ms")
    }
    #expect(try served.status() != .null, "the connected client is still served")
    try limitOpenFiles(of: daemon.pid, to: String(softLimit))
    guard case .welcome? = try waiting.read() else {
      Issue.record("the waiting connection must be accepted and welcomed")
      return
    }
    try waiting.send(#"{"type":"status","id":1}"#)
    guard case .status(1, _)? = try waiting.read() else {
      Issue.record("the accepted connection must be served")
      return
    }
  }

  private static func openDescriptors(_ pid: pid_t) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
  }
}
