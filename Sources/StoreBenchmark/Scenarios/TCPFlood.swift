import Foundation
import Glibc
import Platform
import Synchronization

/// l: a flood of TCP connections that never give the right token, beside a
/// local client: how much the flood slows the local client's send → ack at
/// the tail. TCP connections have their own slots (`--max-tcp-clients`), so
/// the flood never takes the local client's; what it costs is the daemon's
/// work on each connection it accepts and refuses.
extension Benchmark {
  func measureTCPFlood() {
    measure("l") { () throws(BenchError) in
      let directory = newDirectory("l-token")
      let tokenFile = directory + "/token"
      guard let file = fopen(tokenFile, "w") else { throw BenchError("cannot write \(tokenFile)") }
      fputs("a-token-the-flood-never-gives-0123456789\n", file)
      fclose(file)
      let port: UInt16
      do {
        let probe = try SocketCalls.listenOnLoopback()
        port = probe.port
        close(probe.fd)
      } catch {
        throw BenchError("cannot find a free TCP port: \(error)")
      }
      let daemon = try daemon(
        "l", fsync: "never",
        arguments: ["--listen-tcp", "127.0.0.1:\(port)", "--token-file", tokenFile, "--max-tcp-clients", "64"])
      let alone = try loadDaemon(daemon, clients: 1, depth: 1, latencies: true)
      let flood = TCPFlood(port: port)
      let beside = try loadDaemon(daemon, clients: 1, depth: 1, latencies: true)
      let connections = flood.stop()
      report.ratio(
        "l", "send → ack p99, 1 local client beside a TCP flood (\(connections) refused connections)",
        percentile(beside.latencies, 0.99), .microseconds,
        reference: ("alone", percentile(alone.latencies, 0.99)), target: .atMost(2.0))
    }
  }
}

/// Connects to the daemon's TCP listener over and over from a thread of its
/// own, each time giving a wrong token in its `hello` and closing.
private final class TCPFlood: Sendable {
  private let stopped = Atomic<Bool>(false)
  private let count = Atomic<Int>(0)
  private let finished = DispatchSemaphore(value: 0)

  init(port: UInt16) {
    let hello = Array(#"{"type":"hello","protocol":1,"client":"flood","token":"not-the-token"}"#.utf8)
    let length = UInt32(hello.count)
    let frame =
      [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
      + hello
    Thread.detachNewThread { [self] in
      while !stopped.load(ordering: .relaxed) {
        guard let fd = try? SocketCalls.connect(host: "127.0.0.1", port: port, timeout: .seconds(5)) else {
          usleep(1000)
          continue
        }
        _ = SocketCalls.sendAll(frame, to: fd)
        close(fd)
        count.wrappingAdd(1, ordering: .relaxed)
      }
      finished.signal()
    }
  }

  /// Stops the flood; how many connections it made.
  func stop() -> Int {
    stopped.store(true, ordering: .relaxed)
    finished.wait()
    return count.load(ordering: .relaxed)
  }
}
