import Glibc
import Platform

/// k: many idle clients connected at once: what each costs the daemon's
/// memory, and whether the one client that sends is slowed by them.
extension Benchmark {
  func measureIdleClients() {
    measure("k") { () throws(BenchError) in
      let count = options.idleClients
      let daemon = try daemon("k", fsync: "never", arguments: ["--max-clients", String(count + 16)])
      let alone = try loadDaemon(daemon, clients: 1, depth: 1, latencies: true)
      let before = daemon.residentBytes
      var idle: [UnixSocket] = []
      idle.reserveCapacity(count)
      defer { for socket in idle { socket.close() } }
      for _ in 0..<count { idle.append(try daemon.connect(name: "idle")) }
      let after = daemon.residentBytes
      let beside = try loadDaemon(daemon, clients: 1, depth: 1, latencies: true)
      report.absolute(
        "k", "RSS added per idle client, \(count) clients", Double(after - before) / Double(count), .bytes,
        target: .atMost(8192), note: "total \(Unit.mebibytes.format(Double(after)))")
      report.ratio(
        "k", "send → ack p50, 1 client beside \(count) idle ones", percentile(beside.latencies, 0.5), .microseconds,
        reference: ("alone", percentile(alone.latencies, 0.5)), target: .atMost(1.2))
    }
  }
}
