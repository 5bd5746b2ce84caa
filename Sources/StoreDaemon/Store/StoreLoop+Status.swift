import ComposableCore
import Glibc
import JSON
import Wire

/// How the daemon is doing, gathered from the loop's owners: for
/// `tcactl status` and for systemd's `STATUS=`. Runs on the store loop's
/// thread only.
extension StoreLoop {
  /// The status a client of `instance` is told: the daemon's, with the
  /// version, epoch, clients, subscribers and effects of that store.
  func statusReport(of instance: StoreInstance<App>) -> JSONValue {
    let uptime = ContinuousClock.now - startedAt
    var report: JSONObject = [
      "server": .string("\(App.name) \(App.version)"),
      "protocol": .int(ProtocolVersion.current),
      "pid": .int(Int(getpid())),
      "uptimeSeconds": .int(Int(uptime.components.seconds)),
      "epoch": .string(instance.epoch),
      "version": .int(Int(instance.store.version)),
      "clients": .int(instance.clients.count),
      "subscribers": .int(instance.publisher.subscriberCount),
      "socket": .string(options.socketPath),
      "stateDirectory": .string(options.stateDirectory),
      "effectsInFlight": .int(instance.store.inFlight.count),
      "journal": instance.committer.status,
      "workers": supervisor.status,
      "storesOpen": .int(storeCount),
    ]
    if let name = instance.name { report["store"] = .string(name.text) }
    if let replica = instance.committer.replica { report["replication"] = replica.status }
    return .object(report)
  }

  /// What must reach systemd's status at once: the degraded workers, and
  /// whether writes are refused.
  var alerts: [String] {
    var refused: [String] = []
    forEachStore { instance in
      guard instance.committer.writesRefused != nil else { return }
      refused.append("writes refused" + (instance.name.map { " by the store '\($0)'" } ?? ""))
    }
    return supervisor.phases.filter { $0.phase == "degraded" }.map(\.kind.rawValue) + refused
  }

  /// The daemon's state in one line, e.g. `version 42; 3 clients, 1 subscriber;
  /// workers: timer running, network running, storage running`.
  var statusLine: String {
    let subscribers = publisher.subscriberCount
    var parts = [
      "\(clients.count) client\(clients.count == 1 ? "" : "s"), \(subscribers) subscriber\(subscribers == 1 ? "" : "s")",
      "workers: " + supervisor.phases.map { "\($0.kind.rawValue) \($0.phase)" }.joined(separator: ", "),
    ]
    if let replica = committer.replica {
      parts.insert("\(replica.role.rawValue) the store \(replica.options.storeID)", at: 0)
    }
    let degraded = supervisor.phases.filter { $0.phase == "degraded" }.map(\.kind.rawValue)
    if !degraded.isEmpty { parts.append("DEGRADED: " + degraded.joined(separator: ", ")) }
    if committer.writesRefused != nil { parts.append("WRITES REFUSED after a journal failure (see the log)") }
    if storeCount > 1 { parts.insert("\(storeCount - 1) named store\(storeCount == 2 ? "" : "s") open", at: 1) }
    return "version \(store.version); " + parts.joined(separator: "; ")
  }
}
