import Foundation
import Glibc
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
