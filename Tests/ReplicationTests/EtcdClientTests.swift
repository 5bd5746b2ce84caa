import Glibc
import Replication
import TestSupport
import Testing

/// The etcd client against a real three-member cluster on 127.0.0.1.
@Suite(
  .ownThreads, .serialized, .enabled(if: EtcdCluster.isInstalled, "needs Debian's etcd-server (.ci/run installs it)"))
struct EtcdClientTests {
  private func client(_ cluster: EtcdCluster, timeout: Duration = .seconds(10)) throws -> EtcdClient {
    EtcdClient(endpoints: try EtcdEndpoint.parse(url: cluster.url), timeout: timeout)
  }

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func whatOneMemberWritesAnotherReads() throws {
    let cluster = try EtcdCluster()
    let writer = try client(cluster)
    let revision = try writer.put(bytes("store/a"), bytes("one"))
    try writer.put(bytes("store/b"), bytes("two"))
    let reader = EtcdClient(endpoints: [try #require(EtcdEndpoint(cluster.clientAddresses[2]))])
    let (values, now) = try reader.range(bytes("store/"), end: EtcdClient.prefixEnd(of: bytes("store/")))
    #expect(values.map { String(decoding: $0.value, as: UTF8.self) } == ["one", "two"])
    #expect(values.first?.modRevision == revision)
    #expect(now == revision + 1)
    #expect(try reader.delete(bytes("store/"), end: EtcdClient.prefixEnd(of: bytes("store/"))) == 2)
    #expect(try writer.range(bytes("store/a")).values.isEmpty)
  }

  /// A transaction that expects the head where it was writes once: the
  /// second writer expecting the same is refused. This comparison is what
  /// fences a deposed leader.
  @Test func aTransactionOnTheHeadsRevisionWritesOnce() throws {
    let cluster = try EtcdCluster()
    let first = try client(cluster)
    let second = try client(cluster)
    let head = bytes("store/head")
    let created = try first.put(head, bytes("0"))
    let expect = EtcdClient.Comparison.modRevision(of: head, equals: created)
    let won = try first.transaction(
      comparing: [expect],
      success: [.put(head, bytes("1"), lease: nil), .put(bytes("store/log/1"), bytes("a"), lease: nil)])
    #expect(won.succeeded)
    let lost = try second.transaction(
      comparing: [expect],
      success: [.put(head, bytes("1"), lease: nil), .put(bytes("store/log/1"), bytes("b"), lease: nil)])
    #expect(!lost.succeeded)
    #expect(try first.range(bytes("store/log/1")).values.map(\.value) == [bytes("a")])
    let absent = try first.transaction(
      comparing: [.createRevision(of: bytes("store/leader"), equals: 0)],
      success: [.put(bytes("store/leader"), bytes("me"), lease: nil)])
    #expect(absent.succeeded)
  }

  @Test func aLeasesKeysGoWhenItExpiresOrIsRevoked() throws {
    let cluster = try EtcdCluster()
    let client = try client(cluster)
    let long = try client.grantLease(ttl: 60)
    try client.put(bytes("store/other"), bytes("x"), lease: long.id)
    #expect(try client.keepAlive(long.id) > 0)
    try client.revoke(long.id)
    #expect(try client.range(bytes("store/other")).values.isEmpty)
    // A lease nobody renews expires, whatever the machine is doing.
    let short = try client.grantLease(ttl: 2)
    #expect(short.ttl == 2)
    try client.put(bytes("store/leader"), bytes("me"), lease: short.id)
    let deadline = ContinuousClock.now + .seconds(60)
    while try !client.range(bytes("store/leader")).values.isEmpty {
      guard ContinuousClock.now < deadline else {
        Issue.record("the lease's key outlived it by a minute")
        return
      }
      usleep(100_000)
    }
    #expect(try client.keepAlive(short.id) == 0)
  }

  /// One member killed, the others serve; a majority killed, nothing is
  /// written, and the client says no member answered.
  @Test func oneMemberDownIsServedAroundAMajorityDownIsRefused() throws {
    let cluster = try EtcdCluster()
    // Patient enough for a new leader's election on a busy machine.
    let client = EtcdClient(
      endpoints: try EtcdEndpoint.parse(url: cluster.url), timeout: .seconds(5), patience: .seconds(60))
    try client.put(bytes("k"), bytes("1"))
    cluster.kill(0)
    try client.put(bytes("k"), bytes("2"))
    #expect(try client.range(bytes("k")).values.map(\.value) == [bytes("2")])
    cluster.kill(1)
    // Without a majority nothing is written, however long one waits.
    let refused = try self.client(cluster, timeout: .seconds(2))
    #expect {
      try refused.put(bytes("k"), bytes("3"))
    } throws: { error in
      guard case .unavailable(let failures) = error as? EtcdError else { return false }
      return !failures.isEmpty
    }
  }

  @Test func badURLsSayWhatIsExpected() throws {
    #expect(throws: EtcdError.self) { try EtcdEndpoint.parse(url: "http://127.0.0.1:2379") }
    #expect(throws: EtcdError.self) { try EtcdEndpoint.parse(url: "etcd://localhost:2379") }
    #expect(throws: EtcdError.self) { try EtcdEndpoint.parse(url: "etcd://127.0.0.1:2379,") }
    #expect(
      try EtcdEndpoint.parse(url: "etcd://127.0.0.1:2379,10.0.0.2:12379").map(\.description) == [
        "127.0.0.1:2379", "10.0.0.2:12379",
      ])
  }

  /// A watch from a revision gets every change after it, in order, puts
  /// and deletes; watching again from the last seen misses nothing; a
  /// compacted revision says so.
  @Test func aWatchGetsEveryChangeAfterItsRevision() throws {
    let cluster = try EtcdCluster()
    let client = try client(cluster)
    let prefix = bytes("store/log/")
    let end = EtcdClient.prefixEnd(of: prefix)
    let start = try client.put(bytes("store/log/1"), bytes("a"))
    try client.put(bytes("store/log/2"), bytes("b"))
    let watch = try client.watch(prefix, end: end, after: start - 1)
    try client.delete(bytes("store/log/1"))
    var seen: [EtcdWatchEvent] = []
    let deadline = ContinuousClock.now + .seconds(60)
    while seen.count < 3 && ContinuousClock.now < deadline {
      seen += try watch.next(until: deadline) ?? []
    }
    watch.close()
    guard seen.count == 3, case .put(let first) = seen[0], case .put(let second) = seen[1],
      case .delete(let deleted) = seen[2]
    else {
      Issue.record("expected put, put, delete; got \(seen)")
      return
    }
    #expect(first.value == bytes("a") && second.value == bytes("b"))
    #expect(deleted.key == bytes("store/log/1"))
    #expect([first.modRevision, second.modRevision, deleted.modRevision] == [start, start + 1, start + 2])

    // Again from the second: only what came after it.
    let again = try client.watch(prefix, end: end, after: second.modRevision)
    let resumed = try again.next(until: .now + .seconds(60))
    #expect(resumed?.count == 1)
    again.close()

    try client.compact(to: deleted.modRevision)
    let compacted = try client.watch(prefix, end: end, after: start - 1)
    #expect(try compacted.next(until: .now + .seconds(60)) == [.compacted(revision: deleted.modRevision)])
  }
}
