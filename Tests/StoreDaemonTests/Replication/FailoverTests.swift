import Dispatch
import Foundation
import Glibc
import JSON
import Replication
import Synchronization
import TestSupport
import Testing
import Wire

/// A store replicated through a real three-member etcd cluster, with two
/// real daemons: the standby mirrors the leader, takes over when it dies,
/// and nothing acknowledged is lost (docs/OPERATIONS.md, "A store across
/// machines").
@Suite(.ownThreads, .serialized, .enabled(if: EtcdCluster.isInstalled, "etcd is installed by .ci/run (etcd-server)"))
struct FailoverTests {
  @Test func theStandbyHoldsTheLeadersVersionsAndRefusesSendsNamingTheLeader() throws {
    let store = try ReplicatedStore(storeID: "mirror")
    let leader = try store.daemons[0].client()
    let watcher = try store.daemons[1].client("watcher")
    try watcher.subscribe(path: "/counter")
    guard case .snapshot(let start, _, _, _) = try watcher.nextMessage() else {
      Issue.record("the standby's subscription did not start with a snapshot")
      return
    }
    var versions: [UInt64] = []
    for _ in 0..<5 { versions.append(try leader.send(path: "counter.incrementButtonTapped")) }
    // The standby publishes every version, as the leader did.
    for version in versions where version > start {
      let message = try nextMessage(from: watcher) { if case .diff = $0 { true } else { false } }
      guard case .diff(let seen, _, let summary, _) = message else { continue }
      #expect(seen == version)
      #expect(summary == "counter.incrementButtonTapped")
    }
    try store.waitForVersion(versions.last!, at: 1)
    let standby = try store.daemons[1].client()
    #expect(try standby.get(path: "/counter/count").value == .int(5))
    #expect(standby.epoch == leader.epoch)
    // The same log, record for record.
    let leaderLog = try leader.log(since: 0, last: nil).records
    let standbyLog = try standby.log(since: 0, last: nil).records
    #expect(leaderLog.map(\.version) == standbyLog.map(\.version))
    #expect(leaderLog.map(\.action) == standbyLog.map(\.action))
    #expect(leaderLog.map(\.origin) == standbyLog.map(\.origin))
    // A send to the standby is refused, naming the leader, in its text for
    // a person and in its `leader` field for a client.
    let refusal = Result { () throws(ClientError) in try standby.send(path: "counter.incrementButtonTapped") }
    guard case .failure(.notLeader(let message, let named)) = refusal else {
      Issue.record("the standby did not refuse the send: \(refusal)")
      return
    }
    #expect(message.contains(store.daemons[0].socketPath))
    #expect(named == StoreLeader(node: "node0", socket: store.daemons[0].socketPath))
    let raw = try RawConnection(store.daemons[1])
    try raw.hello()
    try raw.send(#"{"type":"send","id":7,"path":"counter.incrementButtonTapped"}"#)
    let payload = try #require(try raw.readPayload())
    let json = try JSONParser.parse(payload)
    #expect(json[path: "code"] == .string("not_leader"))
    #expect(json[path: "id"] == .int(7))
    #expect(
      json[path: "leader"] == .object(["node": .string("node0"), "socket": .string(store.daemons[0].socketPath)]))
    #expect(store.replication(1)?[path: "role"] == .string("following"))
    #expect(try standby.get(path: "/counter/count").value == .int(5))
  }

  @Test func killingTheLeaderAgainAndAgainLosesNothingAcknowledged() throws {
    let store = try ReplicatedStore(storeID: "chaos")
    let sockets = store.sockets
    let shared = ChaosRecord()
    let group = DispatchGroup()
    // Three clients send, each a value of its own every time, to whichever
    // daemon leads: a standby's `not_leader` sends them to the other.
    for sender in 0..<3 {
      DispatchQueue.global().async(group: group) {
        var target = sender % sockets.count
        var client: WireClient?
        var count = 0
        while !shared.stopping.load(ordering: .relaxed) {
          if client == nil {
            client = try? WireClient(path: sockets[target], clientName: "sender\(sender)")
            if client == nil {
              target = (target + 1) % sockets.count
              usleep(20_000)
              continue
            }
          }
          let value = "s\(sender)-\(count)"
          count += 1
          do {
            let version = try client!.send(path: "bmi.input.binding.height", arguments: [value])
            shared.acknowledged.withLock { $0[version] = value }
          } catch ClientError.notLeader {
            client = nil
            target = (target + 1) % sockets.count
            usleep(20_000)
          } catch {
            // No answer: it may or may not have been applied, and is not
            // counted either way.
            client = nil
          }
        }
      }
    }
    // A watcher on the leader, resuming on the new one after each failover.
    DispatchQueue.global().async(group: group) {
      var last: UInt64?
      var epoch: String?
      while !shared.stopping.load(ordering: .relaxed) {
        guard let node = leadingNode(sockets), let client = try? WireClient(path: sockets[node], clientName: "watcher")
        else {
          usleep(20_000)
          continue
        }
        do {
          try client.subscribe(path: "", since: last, epoch: epoch)
          epoch = client.epoch
          while !shared.stopping.load(ordering: .relaxed) {
            guard let message = try client.nextMessage(until: .now + .milliseconds(200)) else { continue }
            switch message {
            case .snapshot(let version, _, _, _):
              shared.watched.withLock { $0.snapshots += 1 }
              last = version
            case .ack:
              shared.watched.withLock { $0.resumptions += 1 }
            case .diff(let version, _, _, _):
              shared.watched.withLock { $0.versions.append(version) }
              last = version
            default:
              break
            }
          }
        } catch {
          continue
        }
      }
    }
    var killed = 0
    var previous = 0
    for round in 0..<4 {
      // A random number of acknowledged sends into the round, then SIGKILL.
      let target = previous + Int.random(in: 5...40)
      try waitUntil("\(target) sends are acknowledged (round \(round))") {
        shared.acknowledged.withLock { $0.count } >= target
      }
      previous = shared.acknowledged.withLock { $0.count }
      let leader = try store.waitForLeader()
      store.kill(leader)
      killed += 1
      _ = try store.waitForLeader(excluding: leader)
      try store.restart(leader)
    }
    let final = previous + 20
    try waitUntil("\(final) sends are acknowledged after the last failover") {
      shared.acknowledged.withLock { $0.count } >= final
    }
    shared.stopping.store(true, ordering: .relaxed)
    group.wait()

    let leader = try store.waitForLeader()
    let client = try store.daemons[leader].client()
    var records: [LogEntry] = []
    var since: UInt64 = 0
    while true {
      let page = try client.log(since: since, last: nil)
      records += page.records
      guard page.more, let last = page.records.last else { break }
      since = last.version
    }
    // Versions from 1, with no gap and none twice, across every failover.
    #expect(records.map(\.version) == Array(1...UInt64(records.count)))
    // Every acknowledged send is in the log at its version, with its value.
    let acked = shared.acknowledged.withLock { $0 }
    var lost: [String] = []
    for (version, value) in acked.sorted(by: { $0.key < $1.key }) {
      let index = Int(version) - 1
      let action =
        index < records.count ? String(decoding: CanonicalJSON.encode(records[index].action), as: UTF8.self) : ""
      guard action.contains("\"\(value)\"") else {
        lost.append("v\(version) \(value)")
        continue
      }
    }
    #expect(lost.isEmpty, "acknowledged but not in the log: \(lost.prefix(10))")
    #expect(killed == 4)
    // The watcher saw each version once, in order, resuming every time.
    let seen = shared.watched.withLock { $0 }
    #expect(seen.versions == Array(seen.versions.sorted()))
    #expect(Set(seen.versions).count == seen.versions.count)
    #expect(seen.snapshots == 1, "the watcher resumed by version after each failover, not by a new snapshot")
    #expect(seen.resumptions >= 1)
    if let first = seen.versions.first, let last = seen.versions.last {
      #expect(seen.versions == Array(first...last), "the watcher missed versions")
    }
  }

  @Test func aDeposedLeaderCanNeitherAppendNorAcknowledge() throws {
    let store = try ReplicatedStore(storeID: "deposed")
    let old = try store.daemons[0].client("old")
    #expect(try old.send(path: "bmi.input.binding.height", arguments: ["before"]) == 1)
    try store.waitForVersion(1, at: 1)
    // Paused past its lease: the standby takes over and goes on.
    kill(store.daemons[0].pid, SIGSTOP)
    #expect(try store.waitForLeader(excluding: 0) == 1)
    let new = try store.daemons[1].client("new")
    let after = try new.send(path: "bmi.input.binding.height", arguments: ["after"])
    // A send waits for the paused leader in its socket; then it resumes.
    let id = try old.post { .send(id: $0, action: .path("bmi.input.binding.height", arguments: ["deposed"])) }
    kill(store.daemons[0].pid, SIGCONT)
    var answer: ServerMessage?
    while let message = try? old.nextMessage(until: .now + eventTimeout) {
      if case .ack(id, _) = message { answer = message }
      if case .error(id?, _, _) = message { answer = message }
    }
    if case .ack? = answer { Issue.record("the deposed leader acknowledged a send: \(answer!)") }
    // It stops rather than serve on as a leader it no longer is.
    store.daemons[0].process.waitUntilExit()
    #expect(store.daemons[0].process.terminationStatus == 75)
    #expect(
      store.daemons[0].standardError.contains("no longer the leader")
        || store.daemons[0].standardError.contains("lease expired"))
    // The log holds what the new leader acknowledged, and nothing of the deposed one's.
    let log = try new.log(since: 0, last: nil).records
    #expect(log.map(\.version) == Array(1...after))
    #expect(!log.contains { String(decoding: CanonicalJSON.encode($0.action), as: UTF8.self).contains("deposed") })
    // Started again, it follows, its journal cut back to the log.
    try store.restart(0)
    try store.waitForVersion(after, at: 0)
    #expect(store.replication(0)?[path: "role"] == .string("following"))
    let rejoined = try store.daemons[0].client()
    #expect(try rejoined.log(since: 0, last: nil).records.map(\.action) == log.map(\.action))
  }

  /// A watcher that resumes at a standby behind the version it has seen
  /// (as after a failover to it) is answered once the standby has caught
  /// up, with the diffs after its version: never with an older snapshot.
  @Test func aWatcherResumingAtAStandbyThatIsBehindIsNeverTakenBack() throws {
    let store = try ReplicatedStore(storeID: "catch-up")
    let leader = try store.daemons[0].client()
    _ = try leader.send(path: "counter.incrementButtonTapped")
    try store.waitForVersion(1, at: 1)
    // The standby is paused while the leader goes on, and the watcher's
    // hello and resume wait in its socket: it reads them before it can
    // have followed the log.
    kill(store.daemons[1].pid, SIGSTOP)
    var last: UInt64 = 0
    for _ in 0..<20 { last = try leader.send(path: "counter.incrementButtonTapped") }
    let watcher = try RawConnection(store.daemons[1])
    try watcher.send(#"{"type":"hello","protocol":1,"client":"resuming"}"#)
    try watcher.send(#"{"type":"subscribe","id":1,"path":"","since":\#(last),"epoch":"\#(leader.epoch)"}"#)
    kill(store.daemons[1].pid, SIGCONT)
    guard case .welcome(_, _, let versionAtHello, _, _)? = try watcher.read() else {
      Issue.record("the standby did not welcome the watcher")
      return
    }
    let answer = try watcher.read()
    guard case .ack(1, last)? = answer else {
      let described =
        if case .snapshot(let version, _, _, let notice)? = answer {
          "a snapshot of version \(version) (\(notice?.rawValue ?? "no notice"))"
        } else {
          String(describing: answer)
        }
      Issue.record("the standby, at version \(versionAtHello), answered \(described), not an ack of version \(last)")
      return
    }
    let next = try leader.send(path: "counter.incrementButtonTapped")
    let message = try #require(try watcher.read())
    guard case .diff(let version, _, _, _) = message else {
      Issue.record("expected the next diff, got \(message)")
      return
    }
    #expect(version == next)
  }

  @Test func oneEtcdMemberDownIsServedAndAMajorityDownAcknowledgesNothing() throws {
    let store = try ReplicatedStore(storeID: "quorum")
    // The first send too follows whichever daemon leads: on a machine busy
    // with other tests, the first leader may have stepped down already,
    // having failed to renew its lease in time.
    var first: UInt64?
    try waitUntil("the first send is acknowledged") {
      try store.restartStopped()
      let client = try? WireClient(paths: store.sockets, clientName: "first", leaderTimeout: .seconds(10))
      first = try? client?.send(path: "counter.incrementButtonTapped")
      return first != nil
    }
    #expect(first ?? 0 >= 1)
    store.cluster.kill(0)
    // Still served: a send is acknowledged. (A leader that could not renew
    // its lease through etcd's election steps down; it is started again,
    // as systemd would, and the client follows whichever daemon leads.)
    var served: UInt64?
    try waitUntil("a send is acknowledged with one etcd member down") {
      try store.restartStopped()
      let client = try? WireClient(paths: store.sockets, clientName: "one-down", leaderTimeout: .seconds(10))
      served = try? client?.send(path: "counter.incrementButtonTapped")
      return served != nil
    }
    let leaderNode = try store.waitForLeader()
    let leader = try store.daemons[leaderNode].client()
    store.cluster.kill(1)
    // No majority: a send is not acknowledged while it lasts (the leader's
    // append waits, and it steps down before its lease could lapse,
    // closing the connection unanswered).
    let id = try leader.post { .send(id: $0, action: .path("counter.incrementButtonTapped", arguments: [])) }
    var acknowledged = false
    while let message = try? leader.nextMessage(until: .now + .seconds(5)) {
      if case .ack(id, _) = message { acknowledged = true }
    }
    #expect(!acknowledged)
    try store.cluster.restart(0)
    try store.cluster.restart(1)
    for node in store.daemons.indices where !store.daemons[node].process.isRunning {
      #expect(store.daemons[node].process.terminationStatus == 75)
    }
    var version: UInt64 = 0
    try waitUntil("a send is acknowledged once the majority is back") {
      try store.restartStopped()
      let client = try? WireClient(paths: store.sockets, clientName: "back", leaderTimeout: .seconds(10))
      version = (try? client?.send(path: "counter.incrementButtonTapped")) ?? 0
      return version > 0
    }
    #expect(version > served!)
    let client = try store.daemons[try store.waitForLeader()].client()
    let log = try client.log(since: 0, last: nil).records
    #expect(log.map(\.version) == Array(1...version))
  }

  @Test func aRollInFlightOnTheDeadLeaderLandsOnTheNewOne() throws {
    // The old leader's roll would take an hour; the new one's lands at once.
    let store = try ReplicatedStore(
      storeID: "recovery", extraArguments: [0: ["--dice-roll", "3600"], 1: ["--dice-roll", "0"]])
    let leader = try store.daemons[0].client()
    let rolled = try leader.send(path: "dice.view.rollButtonTapped")
    #expect(try leader.get(path: "/dice/isRolling").value == .bool(true))
    try store.waitForVersion(rolled, at: 1)
    store.kill(0)
    #expect(try store.waitForLeader() == 1)
    let client = try store.daemons[1].client()
    try waitUntil("the roll lands on the new leader") {
      try client.get(path: "/dice/isRolling").value == .bool(false)
    }
    guard case .array(let history) = try client.get(path: "/dice/rollHistory").value else {
      Issue.record("no roll history")
      return
    }
    #expect(history.count == 1)
    let log = try client.log(since: rolled, last: nil).records
    let recovery = log.first { $0.summary == "dice.internal.recovered" }
    #expect(recovery?.origin[path: "recovery"] == .bool(true), "the new leader's recovery restarted the roll")
  }

  /// A snapshot's compaction asked for while another is under way waits
  /// for it, and is then made: dropped, the last snapshot before the store
  /// went quiet would never become the log's base (seen as a flake of the
  /// test below on a busy machine).
  @Test(.enabled(if: isDebugBuild, "the compaction gate is a fault only debug builds of storedaemon can inject"))
  func aCompactionAskedForDuringAnotherIsMadeWhenItEnds() throws {
    let gate = FileManager.default.temporaryDirectory.appendingPathComponent("compaction-gate-\(UUID())").path
    defer {
      for suffix in ["", ".waiting", ".queued"] { unlink(gate + suffix) }
    }
    let store = try ReplicatedStore(
      storeID: "compaction-queue",
      environment: ["STOREDAEMON_DEBUG_SNAPSHOT_RECORDS": "5", "STOREDAEMON_DEBUG_COMPACTION_GATE": gate])
    let leader = try store.daemons[try store.waitForLeader()].client()
    for _ in 0..<5 { _ = try leader.send(path: "counter.incrementButtonTapped") }
    try waitUntil("the compaction to the snapshot at 5 is under way") { access(gate + ".waiting", F_OK) == 0 }
    for _ in 0..<5 { _ = try leader.send(path: "counter.incrementButtonTapped") }
    try waitUntil("the compaction to the snapshot at 10 waits its turn") { access(gate + ".queued", F_OK) == 0 }
    _ = FileManager.default.createFile(atPath: gate, contents: nil)
    let etcd = EtcdClient(endpoints: try EtcdEndpoint.parse(url: store.cluster.url))
    let base = Array("/storedaemon/compaction-queue/base".utf8)
    try waitUntil("the log's base is the snapshot at version 10") {
      let value = try etcd.range(base).values.first?.value ?? []
      return String(decoding: value, as: UTF8.self).contains("\"version\":10")
    }
  }

  @Test func theLogIsCompactedAfterSnapshotsAndAStandbyBehindItCatchesUpFromTheSnapshot() throws {
    let store = try ReplicatedStore(
      storeID: "compaction", environment: ["STOREDAEMON_DEBUG_SNAPSHOT_RECORDS": "5"])
    // The standby is paused while the log moves on past it.
    kill(store.daemons[1].pid, SIGSTOP)
    let leader = try store.daemons[0].client()
    var version: UInt64 = 0
    for _ in 0..<12 { version = try leader.send(path: "counter.incrementButtonTapped") }
    // The leader's snapshots at 5 and 10 became the log's base in turn, and
    // the records up to the base left etcd.
    let etcd = EtcdClient(endpoints: try EtcdEndpoint.parse(url: store.cluster.url))
    let prefix = Array("/storedaemon/compaction/".utf8)
    try waitUntil("the log's base is the snapshot at version 10") {
      let base = try etcd.range(prefix + Array("base".utf8)).values.first?.value ?? []
      return String(decoding: base, as: UTF8.self).contains("\"version\":10")
    }
    let logKeys = try etcd.range(
      prefix + Array("log/".utf8), end: EtcdClient.prefixEnd(of: prefix + Array("log/".utf8))
    )
    .values.map { UInt64(String(decoding: $0.key.suffix(20), as: UTF8.self)) ?? 0 }
    #expect(!logKeys.isEmpty && logKeys.allSatisfy { $0 > 10 })
    // Resumed, the standby finds the records it needs compacted away, and
    // stops (75); started again (as systemd would), its journal, which ends
    // behind the base, catches up from the log's snapshot, kept in place.
    kill(store.daemons[1].pid, SIGCONT)
    store.daemons[1].process.waitUntilExit()
    #expect(store.daemons[1].process.terminationStatus == 75)
    #expect(store.daemons[1].standardError.contains("compacted"))
    try store.restart(1)
    try store.waitForVersion(version, at: 1)
    let standby = try store.daemons[1].client()
    #expect(try standby.get(path: "/counter/count").value == .int(12))
    #expect(try standby.get().value == leader.get().value)
    let entries = try FileManager.default.contentsOfDirectory(atPath: store.daemons[1].stateDirectory)
    #expect(!entries.contains { $0.hasPrefix("journal.replaced-") }, "\(entries)")
    #expect(store.daemons[1].standardError.contains("caught up to the log's snapshot at version"))
    #expect(!store.daemons[1].standardError.contains("moved the journal aside"))
    #expect(try leader.send(path: "counter.incrementButtonTapped") == version + 1)
    try store.waitForVersion(version + 1, at: 1)
  }

  /// A store of an older schema, replicated for the first time by a newer
  /// build: its log starts in the old schema, and the migration is the
  /// leader's first version in it, as in a rolling upgrade
  /// (`RollingUpgradeTests`).
  @Test func aNewerBuildStartingAReplicatedStoreMigratesItThroughTheLog() throws {
    let cluster = try EtcdCluster()
    let directory = try TemporaryDirectory(prefix: "sd-replicated-upgrade")
    let state = directory.appending("state")
    try FileManager.default.copyItem(atPath: SchemaUpgradeTests.tail, toPath: state)
    let daemon = try DaemonProcess(
      copyingState: state, executable: "shelf-v2",
      arguments: ["--replicate", cluster.url, "--store-id", "shelf", "--node-name", "upgraded"])
    let client = try daemon.client()
    defer { client.close() }
    try waitUntil("the daemon leads and has migrated") {
      try client.status()[path: "replication"]?[path: "role"] == .string("leading") && client.get().version == 8
    }
    let log = try client.log(since: 7, last: nil).records
    #expect(log.map(\.version) == [8])
    #expect(log.first?.action == .object(["$migration": .object(["from": .int(1), "to": .int(2)])]))
    #expect(try client.send(path: "visit") == 9)
    #expect(daemon.standardError.contains("migrated the store's state from schema 1 to 2 at version 8"))
  }

}

/// What the chaos test's clients saw, shared with their threads.
private final class ChaosRecord: Sendable {
  /// Each acknowledged send's version and value.
  let acknowledged = Mutex<[UInt64: String]>([:])
  let stopping = Atomic<Bool>(false)
  /// The versions the watcher saw in diffs, how often it resumed (an `ack`
  /// to its subscription) and how many snapshots it got.
  let watched = Mutex<(versions: [UInt64], resumptions: Int, snapshots: Int)>(([], 0, 0))
}

/// The index of the socket whose daemon says it leads.
private func leadingNode(_ sockets: [String]) -> Int? {
  sockets.indices.first { index in
    guard let client = try? WireClient(path: sockets[index], clientName: "probe"), let report = try? client.status()
    else { return false }
    return report[path: "replication", "role"] == .string("leading")
  }
}
