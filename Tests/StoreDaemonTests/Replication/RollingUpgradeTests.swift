import Foundation
import Glibc
import JSON
import Synchronization
import TestSupport
import Testing
import Wire

/// A replicated store's schema migrated by a rolling upgrade under load
/// (docs/OPERATIONS.md, "Rolling upgrades"): the standby restarted on the
/// new build follows the log in the old schema, the leader stops and hands
/// over, the new leader migrates as its first version, an old build that
/// meets the migration stops for good with a clear message, and the new
/// build on the old leader's node follows the migrated store. Real
/// processes of `shelfd` 1.0.0 and 2.0.0 on a real etcd cluster.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(10)))
struct RollingUpgradeTests {
  /// Adds books to whichever daemon leads, from a thread of its own, until
  /// stopped; records the versions acknowledged.
  private final class Load: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    let acknowledged = Mutex<[UInt64]>([])

    init(sockets: [String]) {
      Thread.detachNewThread { [self] in
        defer { done.signal() }
        var next = 0
        var client: WireClient?
        var count = 0
        while !stopped.load(ordering: .relaxed) {
          do {
            if client == nil {
              client = try WireClient(path: sockets[next], clientName: "load", handshakeTimeout: eventTimeout)
            }
            let version = try client?.send(path: "addBook", arguments: ["book-\(count)"])
            if let version { acknowledged.withLock { $0.append(version) } }
            count += 1
          } catch {
            // A standby, a daemon that stopped: the other one, shortly.
            client?.close()
            client = nil
            next = (next + 1) % sockets.count
            usleep(20_000)
          }
        }
        client?.close()
      }
    }

    var count: Int { acknowledged.withLock { $0.count } }

    /// Stops the load and waits for its thread; once.
    func stop() {
      guard !stopped.exchange(true, ordering: .relaxed) else { return }
      done.wait()
    }
  }

  /// The log's records from the start, read from `client`.
  private static func log(_ client: WireClient) throws -> [LogEntry] {
    var records: [LogEntry] = []
    var since: UInt64 = 0
    while true {
      let page = try client.log(since: since, last: nil)
      records += page.records
      since = page.through
      if !page.more { return records }
    }
  }

  @Test func aRollingUpgradeUnderLoadMigratesOnceAndLosesNothingAcknowledged() throws {
    let store = try ReplicatedStore(storeID: "shelf", executables: [0: "shelf-v1", 1: "shelf-v1"])
    let load = Load(sockets: store.sockets)
    defer { load.stop() }
    try waitUntil("the load is under way") { load.count >= 20 }

    // 1. The standby on the new build follows the store in schema 1.
    #expect(store.daemons[1].stop() == 0)
    try store.restart(1, executable: "shelf-v2")
    try waitUntil("the upgraded standby follows") {
      store.daemons[1].standardError.contains("following its log in schema 1")
    }
    let before = load.count
    try waitUntil("the load goes on beside it") { load.count >= before + 20 }

    // 2. The leader hands over: the new leader migrates, first thing.
    #expect(store.daemons[0].stop() == 0)
    _ = try store.waitForLeader(excluding: 0)
    try waitUntil("the new leader migrates") {
      store.daemons[1].standardError.contains("migrated the store's state from schema 1 to 2")
    }
    let handedOver = load.count
    try waitUntil("the load goes on at the new leader") { load.count >= handedOver + 20 }

    // 3. The old build on the old leader's node meets the migration in the
    // log and stops for good (65, which the unit does not restart).
    let old = store.daemons[0]
    let oldLog = old.directory + "/old-build.log"
    let oldBuild = try SpawnedProcess(
      [
        DaemonProcess.productsDirectory.appendingPathComponent("shelf-v1").path, "--socket", old.socketPath,
        "--state-dir", old.stateDirectory,
      ] + store.arguments(0),
      output: oldLog)
    #expect(oldBuild.wait() == 65)
    let said = (try? String(contentsOfFile: oldLog, encoding: .utf8)) ?? ""
    #expect(said.contains("migrated its state from schema 1 to 2"), "\(said)")
    #expect(said.contains("start a build of schema 2 or newer on this node"), "\(said)")

    // 4. The new build there follows the migrated store.
    try store.restart(0, executable: "shelf-v2")
    let upgraded = load.count
    try waitUntil("the load goes on with both nodes upgraded") { load.count >= upgraded + 20 }
    load.stop()

    let leader = try store.daemons[1].client("check")
    defer { leader.close() }
    let records = try Self.log(leader)
    let migrations = records.filter { $0.action[path: "$migration"] != nil }
    #expect(migrations.count == 1, "one migration: \(migrations.map(\.version))")
    let added = Set(records.filter { $0.action[path: "addBook"] != nil }.map(\.version))
    let lost = Set(load.acknowledged.withLock { $0 }).subtracting(added)
    #expect(lost.isEmpty, "acknowledged and not in the log: \(lost.sorted())")
    let state = try leader.get()
    let books = state.value[path: "books"].flatMap { if case .array(let books) = $0 { books.count } else { nil } }
    #expect(books == added.count, "every book logged is on the shelf")
    try store.waitForVersion(state.version, at: 0, path: "/books")
    let follower = try store.daemons[0].client("check")
    defer { follower.close() }
    #expect(try follower.get(at: state.version).value == state.value)
  }
}
