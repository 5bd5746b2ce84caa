import Foundation
import Glibc
import JSON
import TestSupport
import Wire

/// One store's daemons for a test, replicated through a real etcd cluster
/// on 127.0.0.1: each daemon a real `storedaemon --replicate` with its own
/// socket and state directory, the first started (and leading) before the
/// others.
final class ReplicatedStore {
  let cluster: EtcdCluster
  let storeID: String
  let leaseTTL: Int
  /// Arguments and environment of each node's daemon beyond the replication's.
  let extraArguments: [Int: [String]]
  let environment: [String: String]
  /// The build each node runs, among the built products (`storedaemon`
  /// unless given).
  private(set) var executables: [Int: String]
  /// The daemons, by node: node `i` is named `node<i>`. A killed one stays
  /// until ``restart(_:)`` replaces it.
  private(set) var daemons: [DaemonProcess] = []

  init(
    daemons count: Int = 2, storeID: String, leaseTTL: Int = 5, extraArguments: [Int: [String]] = [:],
    environment: [String: String] = [:], executables: [Int: String] = [:]
  ) throws {
    cluster = try EtcdCluster()
    self.storeID = storeID
    self.leaseTTL = leaseTTL
    self.extraArguments = extraArguments
    self.environment = environment
    self.executables = executables
    for node in 0..<count {
      daemons.append(
        try DaemonProcess(
          executable: executables[node] ?? "storedaemon", arguments: arguments(node), environment: environment))
      if node == 0 { _ = try waitForLeader() }
    }
  }

  /// The daemon's arguments beside its socket and state directory.
  func arguments(_ node: Int) -> [String] {
    ["--replicate", cluster.url, "--store-id", storeID, "--node-name", "node\(node)", "--lease-ttl", "\(leaseTTL)"]
      + (extraArguments[node] ?? [])
  }

  var sockets: [String] { daemons.map(\.socketPath) }

  /// The daemon's replication status (`role`, `leader`, `head`…), nil when
  /// it does not answer.
  func replication(_ node: Int) -> JSONValue? {
    guard daemons[node].process.isRunning, let client = try? daemons[node].client("probe"),
      let report = try? client.status()
    else { return nil }
    return report[path: "replication"]
  }

  /// The node that leads, once one does (and says so).
  func waitForLeader(excluding excluded: Int? = nil) throws -> Int {
    var leader: Int?
    try waitUntil("a daemon of the store \(storeID) leads") {
      leader = daemons.indices.first { node in
        node != excluded && replication(node)?[path: "role"] == .string("leading")
      }
      return leader != nil
    }
    return leader!
  }

  /// Kills the node's daemon with SIGKILL.
  func kill(_ node: Int) {
    Glibc.kill(daemons[node].pid, SIGKILL)
    daemons[node].process.waitUntilExit()
  }

  /// Starts the node's daemon again on its state, once it has stopped:
  /// the same build, or `executable`.
  func restart(_ node: Int, executable: String? = nil) throws {
    if let executable { executables[node] = executable }
    daemons[node] = try DaemonProcess(
      reusing: daemons[node], executable: executables[node] ?? "storedaemon", arguments: arguments(node),
      environment: environment)
  }

  /// Starts again every daemon that stopped (a deposed leader's 75), as
  /// systemd would.
  func restartStopped() throws {
    for node in daemons.indices where !daemons[node].process.isRunning { try restart(node) }
  }

  /// Waits until the node's daemon holds version `version` (read at
  /// `path`, which its state has).
  func waitForVersion(_ version: UInt64, at node: Int, path: String = "/counter") throws {
    try waitUntil("node\(node) reaches version \(version)") {
      guard let client = try? daemons[node].client("probe"), let state = try? client.get(path: path) else {
        return false
      }
      return state.version >= version
    }
  }
}
