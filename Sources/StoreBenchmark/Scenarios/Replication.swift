import Foundation
import Glibc
import JSON
import Platform

/// r: c's load with the journal replicated through etcd, beside c's own
/// figures with the journal local.
extension Benchmark {
  /// The etcd clusters r replicates through: one member, then three (all on
  /// this machine, so the three's majority costs loopback round trips and a
  /// second member's fsync, not a network's).
  static let etcdMembers = [1, 3]

  func measureReplication() {
    measure("r") { () throws(BenchError) in
      guard let etcd = options.etcd else {
        report.skipped(
          "r", "actions/s, journal replicated through etcd",
          because: "no etcd (Debian's etcd-server installs /usr/bin/etcd; --etcd PATH names another)")
        return
      }
      let local = try localFsync()
      for members in Self.etcdMembers {
        let cluster = try EtcdCluster(binary: etcd, members: members, directory: newDirectory("etcd\(members)"))
        // Stopped in this order (the daemon gives its lease back through etcd).
        defer { cluster.stop() }
        let daemon = try replicatedDaemon(cluster)
        defer { daemon.stop() }
        let label = members == 1 ? "1 etcd member" : "\(members) etcd members"

        var revision = cluster.revision()
        let one = try loadDaemon(daemon, clients: 1, depth: 1)
        // Under load its STATUS= changes every second: read, so that the
        // notification socket never fills (the daemon would warn of it).
        _ = daemon.drainWatchdogPings()
        let oneWrites = cluster.revision().flatMap { after in revision.map { after - $0 } }
        report.ratio(
          "r", "actions/s, 1 client, fsync always, journal replicated through \(label) on 127.0.0.1", one.perSecond,
          .perSecond, reference: ("c: journal local, 1 client", local.one), target: nil)

        var fifties: [(load: LoadResult, writes: Int?)] = []
        for _ in 0..<max(1, options.rounds) {
          revision = cluster.revision()
          let load = try loadDaemon(daemon, clients: 50, depth: 1)
          _ = daemon.drainWatchdogPings()
          fifties.append((load, cluster.revision().flatMap { after in revision.map { after - $0 } }))
        }
        let fifty = fifties.sorted { $0.load.perSecond < $1.load.perSecond }[fifties.count / 2]
        report.ratio(
          "r", "actions/s, 50 clients, fsync always, journal replicated through \(label) on 127.0.0.1",
          fifty.load.perSecond, .perSecond, reference: ("c: journal local, 50 clients", local.fifty), target: nil)

        if let oneWrites, let fiftyWrites = fifty.writes, oneWrites > 0, fiftyWrites > 0 {
          report.absolute(
            "r", "actions per etcd transaction (batch), 50 clients, \(label)",
            Double(fifty.load.replies) / Double(fiftyWrites), .count, target: nil,
            note: "1 client: \(Unit.count.format(Double(one.replies) / Double(oneWrites)))")
        }
        if let fsync = cluster.walFsyncMean() {
          report.absolute(
            "r", "etcd's write-ahead log fsync, mean (its metrics), \(label)", fsync, .microseconds, target: nil)
        }
        daemon.stop()
        Self.printLoggedLines(daemon)
      }
    }
  }

  /// c's storedaemon figures (the journal local, `--fsync always`): c's own
  /// when it ran, or the same loads on a daemon of r's.
  func localFsync() throws(BenchError) -> (one: Double, fifty: Double) {
    if let localFsyncFigures { return localFsyncFigures }
    let daemon = try daemon("r-local", fsync: "always")
    let one = try loadDaemon(daemon, clients: 1, depth: 1)
    var fifties: [Double] = []
    for _ in 0..<max(1, options.rounds) { fifties.append(try loadDaemon(daemon, clients: 50, depth: 1).perSecond) }
    let measured = (one: one.perSecond, fifty: fifties.sorted()[fifties.count / 2])
    localFsyncFigures = measured
    return measured
  }

  /// A daemon whose journal is replicated through `cluster` (a store of its
  /// own, `--fsync always` as in c), once it leads: it starts as a standby,
  /// takes the store's leader key and refuses sends with `not_leader` until
  /// then.
  func replicatedDaemon(_ cluster: EtcdCluster) throws(BenchError) -> DaemonUnderTest {
    let daemon = try daemon(
      "r", fsync: "always",
      arguments: ["--replicate", cluster.url, "--store-id", "bench", "--node-name", "bench"])
    let timeout = 60.0
    let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
    var role = "no status"
    while MonotonicClock.now() < deadline {
      _ = daemon.drainWatchdogPings()
      guard daemon.isRunning else {
        throw BenchError("the replicated storedaemon exited before it led; its log: \(daemon.logPath)")
      }
      if let status = try? daemon.client().status() {
        if case .object(let report) = status, case .object(let replication)? = report["replication"],
          case .string(let now)? = replication["role"]
        {
          role = now
          if now == "leading" { return daemon }
        } else {
          role = "no replication in its status"
        }
      }
      usleep(10_000)
    }
    throw BenchError(
      "the replicated storedaemon did not lead within \(Int(timeout)) s (role: \(role)); its log: \(daemon.logPath)")
  }

  /// Shows what the daemon logged (it runs at `--log-level warning`, so
  /// only what went wrong, or looked like it), after the figure's rows.
  static func printLoggedLines(_ daemon: DaemonUnderTest) {
    guard let log = try? String(contentsOfFile: daemon.logPath, encoding: .utf8) else { return }
    let lines = log.split(separator: "\n").filter { $0.hasPrefix("storedaemon:") }
    guard !lines.isEmpty else { return }
    print("  r\tthe replicated daemon logged \(lines.count) warning(s) or error(s):")
    for line in lines.prefix(5) { print("  \t  \(line)") }
    if lines.count > 5 { print("  \t  … (\(lines.count - 5) more)") }
    fflush(nil)
  }
}
