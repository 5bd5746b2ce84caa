import Dispatch
import Glibc
import JSON
import Journal
import Replication
import Synchronization
import TestSupport
import Testing

/// The replicated log against a real three-member etcd cluster on
/// 127.0.0.1: a store's keys, leadership, fenced appends, reading back and
/// compaction. Each test has a cluster and a store of its own; each daemon
/// a client of its own.
@Suite(
  .ownThreads, .serialized, .enabled(if: EtcdCluster.isInstalled, "needs Debian's etcd-server (.ci/run installs it)"))
struct ReplicatedLogTests {
  /// Long enough that no lease a test holds expires on a busy machine.
  private static let heldTTL = 60
  private static let nodeA = LeaderInfo(node: "node-a", socket: "/run/a.sock", address: "127.0.0.1:7001")
  private static let nodeB = LeaderInfo(node: "node-b", socket: "/run/b.sock")

  /// A daemon's view of `store`: a client of its own, patient through an
  /// election on a busy machine.
  private func daemon(_ cluster: EtcdCluster, store: String) throws -> ReplicatedLog {
    let client = EtcdClient(
      endpoints: try EtcdEndpoint.parse(url: cluster.url), timeout: .seconds(10), patience: .seconds(60))
    return ReplicatedLog(storeID: store, client: client)
  }

  /// A record of `version` whose patch carries `padding` bytes more.
  private func record(_ version: UInt64, padding: Int = 0) -> JournalRecord {
    var patch: [JSONValue] = [
      .object(["op": .string("replace"), "path": .string("/count"), "value": .int(Int(version))])
    ]
    if padding > 0 {
      patch.append(
        .object([
          "op": .string("add"), "path": .string("/blobs/-"),
          "value": .string(String(repeating: Character(UnicodeScalar(UInt8(97 + version % 26))), count: padding)),
        ]))
    }
    return JournalRecord(
      version: version, time: 1_700_000_000_000 + Int64(version) * 7,
      origin: .object(["client": .string("test"), "connection": .int(Int(version % 4))]),
      action: .object(["counter": .object(["add": .int(Int(version))]), "note": .string("é \"\(version)\"\n")]),
      inputs: version % 2 == 0 ? .object(["uuid": .string("u-\(version)")]) : nil,
      patch: .array(JSONArray(patch)))
  }

  private func records(_ versions: ClosedRange<UInt64>, padding: Int = 0) -> [JournalRecord] {
    versions.map { record($0, padding: padding) }
  }

  private func state(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// A state of `count` bytes: canonical JSON holding one long string.
  private func bigState(_ count: Int, fill: Character) -> [UInt8] {
    Array(("{\"blob\":\"" + String(repeating: fill, count: count - 11) + "\"}").utf8)
  }

  /// The error `body` throws, nil if none (an error of another type is an
  /// issue of its own).
  private func failure(of body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation)
    -> ReplicationError?
  {
    do {
      try body()
      return nil
    } catch let error as ReplicationError {
      return error
    } catch {
      Issue.record("not a ReplicationError: \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// A base's version, schema, pieces and bytes.
  private func fields(_ base: ReplicatedLog.Base?) -> [Int]? {
    base.map { [Int($0.version), $0.schema, $0.chunks, $0.bytes] }
  }

  /// The store's keys under `suffix` (e.g. `log/`), read straight from etcd.
  private func keys(_ log: ReplicatedLog, under suffix: String) throws -> [EtcdClient.KeyValue] {
    let prefix = Array("/storedaemon/\(log.storeID)/\(suffix)".utf8)
    return try log.client.range(prefix, end: EtcdClient.prefixEnd(of: prefix)).values
  }

  private func keyName(_ value: EtcdClient.KeyValue, in log: ReplicatedLog) -> String {
    String(decoding: value.key.dropFirst("/storedaemon/\(log.storeID)/".utf8.count), as: UTF8.self)
  }

  /// Waits until the store's leader key is gone (its lease expired), for a
  /// minute at most, polling; false, with the issue recorded, if it stays.
  private func leaderKeyGoes(_ log: ReplicatedLog) throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while try log.leader() != nil {
      guard ContinuousClock.now < deadline else {
        Issue.record("the leader key outlived its 2 s lease by a minute")
        return false
      }
      usleep(100_000)
    }
    return true
  }

  /// Campaigns until it wins, for a minute at most (another daemon's key
  /// may take a moment to go).
  private func campaignUntilWon(_ log: ReplicatedLog, as info: LeaderInfo, ttl: Int) throws
    -> ReplicatedLog.Leadership?
  {
    let deadline = ContinuousClock.now + .seconds(60)
    while true {
      if let leadership = try log.campaign(as: info, ttl: ttl) { return leadership }
      guard ContinuousClock.now < deadline else { return nil }
      usleep(100_000)
    }
  }

  // MARK: A new store

  /// A store etcd does not hold has no head; the first daemon leads, starts
  /// the log, and a second start is refused without changing anything.
  @Test func aNewStoreIsStartedOnce() throws {
    let cluster = try EtcdCluster()
    let log = try daemon(cluster, store: "new-store")
    #expect(try log.head() == nil)
    #expect(try log.snapshot() == nil)
    #expect(try log.leader() == nil)
    #expect(try log.records(after: 0).records.isEmpty)

    let leadership = try #require(try log.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(leadership.ttl == Self.heldTTL)
    #expect(leadership.createRevision > 0)
    let base = state(#"{"count":5,"log":["a","b"]}"#)
    #expect(try log.initialize(epoch: "epoch-1", version: 5, schema: 3, state: base, as: leadership))

    let head = try #require(try log.head())
    #expect(head.epoch == "epoch-1")
    #expect(head.version == 5)
    #expect(fields(head.base) == [5, 3, 1, base.count])
    #expect(head.revision > leadership.createRevision)
    let snapshot = try #require(try log.snapshot())
    #expect(snapshot.base == head.base)
    #expect(snapshot.state == base)
    // The keys as docs/OPERATIONS.md lists them.
    let all = try keys(log, under: "")
    #expect(
      all.map { keyName($0, in: log) } == [
        "base", "epoch", "head", "leader", "snapshot/00000000000000000005/000000",
      ])
    #expect(all.first { keyName($0, in: log) == "head" }?.value == state("5"))
    #expect(all.first { keyName($0, in: log) == "epoch" }?.value == state("epoch-1"))

    // A second start, of another epoch and version, changes nothing.
    #expect(
      try !log.initialize(epoch: "epoch-2", version: 9, schema: 4, state: state(#"{"other":true}"#), as: leadership))
    let after = try #require(try log.head())
    #expect(after.epoch == "epoch-1")
    #expect(after.version == 5)
    #expect(after.base == head.base)
    #expect(try log.snapshot()?.state == base)
    #expect(try log.records(after: 5).records.isEmpty)
    // Nothing was appended: records from before the base are in the snapshot.
    guard case .compacted(let from)? = failure(of: { _ = try log.records(after: 4) }) else {
      Issue.record("records before the base should be reported compacted")
      return
    }
    #expect(from == 5)
  }

  /// A state larger than a transaction's share is stored in pieces and
  /// read back whole; an empty state is one empty piece.
  @Test func aLargeStateIsStoredInPiecesAndReadBackWhole() throws {
    let cluster = try EtcdCluster()
    let log = try daemon(cluster, store: "large-state")
    let leadership = try #require(try log.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    let base = bigState(ReplicatedLog.transactionBytes + 100_000, fill: "z")
    #expect(try log.initialize(epoch: "e", version: 0, schema: 1, state: base, as: leadership))
    let snapshot = try #require(try log.snapshot())
    #expect(fields(snapshot.base) == [0, 1, 3, base.count])
    // Compared first: a failed #expect on megabytes would diff them for minutes.
    let whole = snapshot.state == base
    #expect(whole, "the state read back (\(snapshot.state.count) bytes) is not the one written")
    #expect(
      try keys(log, under: "snapshot/").map { $0.value.count }.allSatisfy { $0 <= ReplicatedLog.transactionBytes })

    let empty = try daemon(cluster, store: "empty-state")
    let emptyLeadership = try #require(try empty.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try empty.initialize(epoch: "e", version: 0, schema: 1, state: [], as: emptyLeadership))
    let emptySnapshot = try #require(try empty.snapshot())
    #expect(fields(emptySnapshot.base) == [0, 1, 1, 0])
    #expect(emptySnapshot.state.isEmpty)
  }

  /// `initialize` on a store that exists returns false; with a state in
  /// several pieces it must still leave the store's snapshots as they were.
  @Test func aRefusedStartLeavesTheSnapshotWhole() throws {
    let cluster = try EtcdCluster()
    let log = try daemon(cluster, store: "refused-start")
    let leadership = try #require(try log.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    let first = bigState(ReplicatedLog.transactionBytes, fill: "a")
    #expect(try log.initialize(epoch: "e1", version: 0, schema: 1, state: first, as: leadership))
    let second = bigState(ReplicatedLog.transactionBytes, fill: "b")
    #expect(try !log.initialize(epoch: "e2", version: 0, schema: 1, state: second, as: leadership))
    #expect(try log.head()?.epoch == "e1")
    // Every piece is fenced by the store's absence, not only the last.
    let snapshot = try #require(try log.snapshot())
    let unchanged = snapshot.state == first
    #expect(unchanged, "the existing snapshot's first piece is the refused state's")

    // Refused at another version, its pieces but the last stay behind; a
    // later snapshot at that version in fewer pieces is then unreadable.
    let threePieces = bigState(ReplicatedLog.transactionBytes + 100_000, fill: "c")
    #expect(try !log.initialize(epoch: "e3", version: 7, schema: 1, state: threePieces, as: leadership))
    #expect(try log.head()?.base.version == 0)
    #expect(try log.append(records(1...7), after: 0, as: leadership) == 7)
    try log.compact(version: 7, schema: 1, state: state(#"{"count":7}"#), as: leadership)
    #expect(try log.head()?.base.version == 7)
    #expect(try log.snapshot()?.state == state(#"{"count":7}"#))
  }

  // MARK: Leadership

  /// While one daemon leads, another's campaign loses, and both read the
  /// leader key as the first wrote it.
  @Test func aSecondDaemonLosesWhileTheFirstLeads() throws {
    let cluster = try EtcdCluster()
    let first = try daemon(cluster, store: "two-daemons")
    let second = try daemon(cluster, store: "two-daemons")
    let leadership = try #require(try first.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try second.campaign(as: Self.nodeB, ttl: Self.heldTTL) == nil)
    #expect(try first.campaign(as: Self.nodeA, ttl: Self.heldTTL) == nil)
    for log in [first, second] {
      let leader = try #require(try log.leader())
      #expect(leader.info == Self.nodeA)
      #expect(leader.info.node == "node-a")
      #expect(leader.info.socket == "/run/a.sock")
      #expect(leader.info.address == "127.0.0.1:7001")
      #expect(leader.createRevision == leadership.createRevision)
    }
    // The leader key is the lease's: the losers' leases left nothing behind.
    let leaderKey = try #require(try keys(first, under: "leader").first)
    #expect(leaderKey.lease == leadership.lease)
    #expect(try first.keepAlive(leadership))

    // Once the first resigns, the second wins and is named.
    first.resign(leadership)
    #expect(try first.leader() == nil)
    let taken = try #require(try campaignUntilWon(second, as: Self.nodeB, ttl: Self.heldTTL))
    #expect(taken.createRevision > leadership.createRevision)
    let now = try #require(try first.leader())
    #expect(now.info == Self.nodeB)
    #expect(now.info.address == nil)
    #expect(now.createRevision == taken.createRevision)
  }

  /// `keepAlive` renews a lease that is held, and says false once it is
  /// gone, revoked or expired.
  @Test func keepAliveHoldsUntilTheLeaseIsGone() throws {
    let cluster = try EtcdCluster()
    let log = try daemon(cluster, store: "keep-alive")
    let leadership = try #require(try log.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try log.keepAlive(leadership))
    #expect(try log.keepAlive(leadership))
    log.resign(leadership)
    #expect(try !log.keepAlive(leadership))
    #expect(try log.leader() == nil)

    // A short lease nobody renews expires, whatever the machine is doing.
    let short = try #require(try log.campaign(as: Self.nodeB, ttl: 2))
    #expect(short.ttl == 2)
    guard try leaderKeyGoes(log) else { return }
    #expect(try !log.keepAlive(short))
  }

  // MARK: Appending and reading

  /// Batches appended one after another read back equal and in order from
  /// any version, across the batches' keys.
  @Test func appendedRecordsReadBackInOrderFromAnyVersion() throws {
    let cluster = try EtcdCluster()
    let leader = try daemon(cluster, store: "append-read")
    let follower = try daemon(cluster, store: "append-read")
    let leadership = try #require(try leader.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try leader.initialize(epoch: "e", version: 0, schema: 1, state: state("{}"), as: leadership))
    let all = records(1...12)
    #expect(try leader.append(Array(all[0..<5]), after: 0, as: leadership) == 5)
    #expect(try leader.append([all[5]], after: 5, as: leadership) == 6)
    #expect(try leader.append(Array(all[6..<12]), after: 6, as: leadership) == 12)
    // Nothing to append changes nothing.
    #expect(try leader.append([], after: 12, as: leadership) == 12)

    #expect(try follower.head()?.version == 12)
    for after: UInt64 in [0, 1, 4, 5, 6, 7, 11] {
      let read = try follower.records(after: after)
      #expect(read.records == Array(all[Int(after)...]), "after \(after)")
      #expect(read.records.map(\.version) == Array((after + 1)...12), "after \(after)")
      #expect(read.revision > 0)
    }
    #expect(try follower.records(after: 12).records.isEmpty)
    #expect(try follower.records(after: 40).records.isEmpty)
    // Every field survives, inputs included.
    let read = try follower.records(after: 0).records
    #expect(read[1].inputs == .object(["uuid": .string("u-2")]))
    #expect(read[0].inputs == nil)
    #expect(read[2].action == all[2].action)
    #expect(read[2].origin == all[2].origin)
    #expect(read[2].time == all[2].time)
    #expect(read[2].patch == all[2].patch)
    // One key per batch, named by its last version.
    #expect(
      try keys(leader, under: "log/").map { keyName($0, in: leader) } == [
        "log/00000000000000000005", "log/00000000000000000006", "log/00000000000000000012",
      ])
  }

  /// An append larger than one transaction takes is split across
  /// transactions, none over the limit, and reads back whole.
  @Test func aLargeAppendIsSplitAcrossTransactions() throws {
    let cluster = try EtcdCluster()
    let log = try daemon(cluster, store: "large-append")
    let leadership = try #require(try log.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try log.initialize(epoch: "e", version: 0, schema: 1, state: state("{}"), as: leadership))
    let big = records(1...8, padding: 300_000)
    let total = JournalFrames.encode(big).count
    #expect(total > 2 * ReplicatedLog.transactionBytes)
    #expect(try log.append(big, after: 0, as: leadership) == 8)
    // And a small one after it.
    #expect(try log.append(records(9...10), after: 8, as: leadership) == 10)

    #expect(try log.head()?.version == 10)
    for after: UInt64 in [0, 4] {
      let read = try log.records(after: after).records
      let equal = read == Array(big[Int(after)...]) + records(9...10)
      #expect(equal, "after \(after): read versions \(read.map(\.version))")
    }
    #expect(try log.records(after: 8).records == records(9...10))

    let batches = try keys(log, under: "log/").dropLast()
    #expect(batches.count >= 3)
    var next: UInt64 = 1
    var bytes = 0
    for batch in batches {
      #expect(batch.value.count <= ReplicatedLog.transactionBytes)
      let decoded = try JournalFrames.decode(batch.value, source: "test")
      #expect(decoded.first?.version == next)
      #expect(decoded.map(\.version) == Array(next..<(next + UInt64(decoded.count))))
      let last = try #require(decoded.last).version
      #expect(keyName(batch, in: log) == "log/" + String(repeating: "0", count: 19) + String(last))
      next = last + 1
      bytes += batch.value.count
    }
    #expect(next == 9)
    #expect(bytes == total)
  }

  // MARK: Fencing

  /// A leader whose lease was revoked cannot append once another leads:
  /// etcd refuses the transaction and nothing of it is in the log.
  @Test func aDeposedLeadersAppendIsRefused() throws {
    let cluster = try EtcdCluster()
    let first = try daemon(cluster, store: "fencing")
    let second = try daemon(cluster, store: "fencing")
    let old = try #require(try first.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try first.initialize(epoch: "e", version: 0, schema: 1, state: state("{}"), as: old))
    #expect(try first.append(records(1...3), after: 0, as: old) == 3)
    let before = try #require(try second.head())

    first.resign(old)
    let new = try #require(try campaignUntilWon(second, as: Self.nodeB, ttl: Self.heldTTL))

    // The old leader appends what follows, as if it still led: refused.
    guard case .deposed(let why)? = failure(of: { _ = try first.append(records(4...5), after: 3, as: old) }) else {
      Issue.record("the deposed leader's append was not refused")
      return
    }
    #expect(why.contains("node-b"))
    // A large one, that would take several transactions, too.
    let large = records(4...7, padding: 400_000)
    guard case .deposed? = failure(of: { _ = try first.append(large, after: 3, as: old) }) else {
      Issue.record("the deposed leader's large append was not refused")
      return
    }
    // Nor can it compact or start the log.
    guard case .deposed? = failure(of: { try first.compact(version: 3, schema: 1, state: state("{}"), as: old) })
    else {
      Issue.record("the deposed leader's compaction was not refused")
      return
    }
    #expect(try !first.initialize(epoch: "x", version: 0, schema: 1, state: state("{}"), as: old))

    // Nothing it sent is in the log.
    let after = try #require(try second.head())
    #expect(after.version == 3)
    #expect(after.epoch == before.epoch)
    #expect(after.base == before.base)
    #expect(try second.records(after: 0).records == records(1...3))
    #expect(try second.records(after: 3).records.isEmpty)
    #expect(try keys(second, under: "log/").count == 1)
    #expect(try second.snapshot()?.base.version == 0)

    // The new leader continues from the head.
    #expect(try second.append(records(4...5), after: 3, as: new) == 5)
    #expect(try first.records(after: 0).records == records(1...5))
  }

  /// An append that expects another head than the log's is refused, head
  /// behind or ahead, and writes nothing.
  @Test func anAppendAfterTheWrongHeadIsRefused() throws {
    let cluster = try EtcdCluster()
    let log = try daemon(cluster, store: "wrong-head")
    let leadership = try #require(try log.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try log.initialize(epoch: "e", version: 0, schema: 1, state: state("{}"), as: leadership))
    #expect(try log.append(records(1...4), after: 0, as: leadership) == 4)

    for (versions, head) in [(6...7, UInt64(5)), (3...4, 2), (5...6, 0)] as [(ClosedRange<UInt64>, UInt64)] {
      guard
        case .deposed(let why)? = failure(of: { _ = try log.append(records(versions), after: head, as: leadership) })
      else {
        Issue.record("an append after \(head) when the head is 4 was not refused")
        continue
      }
      #expect(why.contains("4"), "\(why)")
    }
    #expect(try log.head()?.version == 4)
    #expect(try log.records(after: 0).records == records(1...4))
    #expect(try keys(log, under: "log/").map { keyName($0, in: log) } == ["log/00000000000000000004"])
    // The leadership itself is intact.
    #expect(try log.append(records(5...5), after: 4, as: leadership) == 5)
  }

  /// A leader whose lease expired (not renewed) is fenced even before
  /// anyone else leads.
  @Test func aLeaderWhoseLeaseExpiredIsFenced() throws {
    let cluster = try EtcdCluster()
    let first = try daemon(cluster, store: "expired")
    let second = try daemon(cluster, store: "expired")
    let held = try #require(try first.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try first.initialize(epoch: "e", version: 0, schema: 1, state: state("{}"), as: held))
    #expect(try first.append(records(1...2), after: 0, as: held) == 2)
    first.resign(held)
    // A lease of 2 s, never renewed: wait for etcd to end it.
    let short = try #require(try campaignUntilWon(second, as: Self.nodeB, ttl: 2))
    guard try leaderKeyGoes(second) else { return }
    #expect(try !second.keepAlive(short))
    guard case .deposed(let why)? = failure(of: { _ = try second.append(records(3...4), after: 2, as: short) })
    else {
      Issue.record("an expired leader's append was not refused")
      return
    }
    #expect(why.contains("gone"), "\(why)")
    #expect(try second.head()?.version == 2)
    #expect(try second.records(after: 0).records == records(1...2))
    #expect(try keys(second, under: "log/").map { keyName($0, in: second) } == ["log/00000000000000000002"])
  }

  // MARK: Compaction

  /// Stores sharing one etcd cluster compact its history, each to its own
  /// revision, at the same time: every compaction moves its store's base
  /// and none fails.
  @Test func storesSharingAClusterCompactAtOnce() throws {
    let cluster = try EtcdCluster()
    let url = cluster.url
    let rounds = 25
    let outcomes = Mutex<[(store: Int, round: Int, error: ReplicationError?)]>([])
    let setup = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      do {
        let client = EtcdClient(
          endpoints: try EtcdEndpoint.parse(url: url), timeout: .seconds(10), patience: .seconds(60))
        let log = ReplicatedLog(storeID: "shared-\(index)", client: client)
        guard let leadership = try log.campaign(as: Self.nodeA, ttl: Self.heldTTL),
          try log.initialize(epoch: "e", version: 0, schema: 1, state: Array("{}".utf8), as: leadership)
        else {
          setup.withLock { $0.append("store \(index) did not start") }
          return
        }
        for round in 1...rounds {
          let state = Array(#"{"round":\#(round)}"#.utf8)
          var failure: ReplicationError?
          do throws(ReplicationError) {
            try log.compact(version: 0, schema: 1, state: state, as: leadership)
          } catch {
            failure = error
          }
          // Whatever compact said, the base it wrote is the store's.
          guard try log.snapshot()?.state == state else {
            setup.withLock { $0.append("store \(index) round \(round): the base is not the one written") }
            return
          }
          outcomes.withLock { $0.append((index, round, failure)) }
        }
      } catch {
        setup.withLock { $0.append("store \(index): \(error)") }
      }
    }
    #expect(setup.withLock { $0 } == [])
    let all = outcomes.withLock { $0 }
    #expect(all.count == 2 * rounds)
    let failed = all.filter { $0.error != nil }
    // Another store compacting etcd's history past this one's revision in
    // between is no failure: the history is compacted at least that far.
    #expect(failed.isEmpty, "\(failed.count) of \(all.count) compactions threw: \(failed.first.map { "\($0)" } ?? "")")
  }

  /// Compacting makes a newer snapshot the base: the records up to it are
  /// gone (reading them says so), later ones remain, the older snapshot is
  /// deleted, and a watch from before says the history was compacted.
  @Test func compactionMovesTheBaseAndDropsWhatItCovers() throws {
    let cluster = try EtcdCluster()
    let leader = try daemon(cluster, store: "compaction")
    let follower = try daemon(cluster, store: "compaction")
    let leadership = try #require(try leader.campaign(as: Self.nodeA, ttl: Self.heldTTL))
    #expect(try leader.initialize(epoch: "e", version: 0, schema: 1, state: state(#"{"count":0}"#), as: leadership))
    #expect(try leader.append(records(1...3), after: 0, as: leadership) == 3)
    #expect(try leader.append(records(4...6), after: 3, as: leadership) == 6)
    #expect(try leader.append(records(7...9), after: 6, as: leadership) == 9)
    let before = try #require(try follower.head()).revision

    let newBase = bigState(ReplicatedLog.transactionBytes / 2 + 1000, fill: "s")
    let compactedTo = try leader.compact(version: 6, schema: 2, state: newBase, as: leadership)
    #expect(compactedTo > before)

    let head = try #require(try follower.head())
    #expect(head.version == 9)
    #expect(head.epoch == "e")
    #expect(fields(head.base) == [6, 2, 2, newBase.count])
    let snapshot = try #require(try follower.snapshot())
    #expect(snapshot.base == head.base)
    let whole = snapshot.state == newBase
    #expect(whole, "the state read back (\(snapshot.state.count) bytes) is not the one written")
    // The old snapshot's and the covered records' keys are gone.
    #expect(
      try keys(follower, under: "snapshot/").map { keyName($0, in: follower) } == [
        "snapshot/00000000000000000006/000000", "snapshot/00000000000000000006/000001",
      ])
    #expect(try keys(follower, under: "log/").map { keyName($0, in: follower) } == ["log/00000000000000000009"])

    for after: UInt64 in [0, 2, 3, 5] {
      guard case .compacted(let base)? = failure(of: { _ = try follower.records(after: after) }) else {
        Issue.record("records after \(after) should be compacted away")
        continue
      }
      #expect(base == 6, "after \(after)")
    }
    #expect(try follower.records(after: 6).records == records(7...9))
    #expect(try follower.records(after: 8).records == records(9...9))

    // A watch from before the compaction is told so.
    let stale = try follower.watch(after: before)
    let told = try stale.next(until: .now + .seconds(60))
    stale.close()
    #expect(told == [.compacted(revision: compactedTo)])

    // From the compaction on, a watch sees the next append.
    let watch = try follower.watch(after: compactedTo)
    #expect(try leader.append(records(10...11), after: 9, as: leadership) == 11)
    var seen: [EtcdWatchEvent] = []
    let deadline = ContinuousClock.now + .seconds(60)
    while seen.count < 2 && ContinuousClock.now < deadline {
      seen += try watch.next(until: deadline) ?? []
    }
    watch.close()
    let written = seen.compactMap { event -> String? in
      guard case .put(let value) = event else { return nil }
      return keyName(value, in: follower)
    }
    #expect(Set(written) == ["log/00000000000000000011", "head"])
    #expect(try follower.records(after: 6).records == records(7...11))

    // Compacting again, to the head, leaves no records and one snapshot.
    let again = try leader.compact(version: 11, schema: 2, state: state(#"{"count":11}"#), as: leadership)
    #expect(again > compactedTo)
    #expect(try follower.snapshot()?.state == state(#"{"count":11}"#))
    #expect(try follower.snapshot()?.base.version == 11)
    #expect(try keys(follower, under: "log/").isEmpty)
    #expect(
      try keys(follower, under: "snapshot/").map { keyName($0, in: follower) } == [
        "snapshot/00000000000000000011/000000"
      ])
    #expect(try follower.records(after: 11).records.isEmpty)
    guard case .compacted(base: 11)? = failure(of: { _ = try follower.records(after: 9) }) else {
      Issue.record("records after 9 should be compacted away")
      return
    }
  }
}
