import Foundation
import Glibc
import Platform
import Wire

/// m: many stores in one daemon: 50 clients each on a store of its own,
/// a cold store's first send, the memory of active idle stores, and the
/// start with many stores on disk.
extension Benchmark {
  func measureStores() {
    // Each on its own, so that one that fails leaves the others measured.
    measure("m") { () throws(BenchError) in try measureOwnStores() }
    measure("m") { () throws(BenchError) in try measureColdStore() }
    measure("m") { () throws(BenchError) in try measureActiveStores() }
    measure("m") { () throws(BenchError) in try measureClosedStores() }
    measure("m") { () throws(BenchError) in try measureStoresOnDisk() }
  }

  static func storeName(_ prefix: String, _ index: Int) throws(BenchError) -> StoreName {
    do {
      return try StoreName("\(prefix)-\(index)")
    } catch {
      throw BenchError("\(prefix)-\(index) is not a store name: \(error.message)")
    }
  }

  /// 50 clients, each sending to a store of its own, beside Redis at 50
  /// clients; every store's counter must have moved by what it acknowledged.
  private func measureOwnStores() throws(BenchError) {
    let daemon = try daemon("m", fsync: "never")
    let redis = try redis()
    let stores = try (0..<50).map { (index) throws(BenchError) in try Self.storeName("user", index) }
    let (ours, theirs) = try inTurn(
      { () throws(BenchError) in try loadOwnStores(daemon, stores) }, redis,
      theirs: { redis throws(BenchError) in try loadRedis(redis, clients: 50, depth: 1) })
    report.ratio(
      "m", "actions/s, 50 clients each on a store of its own, no fsync", ours.perSecond, .perSecond,
      reference: theirs.map { ("Redis INCR, 50 clients", $0.perSecond) }, target: .atLeast(1.0))
  }

  /// Sends from one client per store in `stores`, one action outstanding
  /// each, and checks the stores' counters moved by the acknowledged count.
  private func loadOwnStores(_ daemon: DaemonUnderTest, _ stores: [StoreName]) throws(BenchError) -> LoadResult {
    let before = try total(daemon, stores)
    var sockets: [UnixSocket] = []
    defer { for socket in sockets { socket.close() } }
    for store in stores { sockets.append(try daemon.connect(store: store)) }
    let result = try LoadDriver.run(
      sockets, request: Self.increment, depth: 1, framing: .frames, duration: options.seconds,
      recordLatencies: false, check: Self.checkAck)
    let after = try total(daemon, stores)
    guard after - before == result.replies else {
      throw BenchError("\(result.replies) increments were acknowledged, but the stores moved by \(after - before)")
    }
    return result
  }

  /// A store whose journal holds 1,000 records, not opened since the daemon
  /// started: from connecting to the acknowledgement of its first send.
  private func measureColdStore() throws(BenchError) {
    let directory = newDirectory("m-cold")
    let count = options.smoke ? 5 : 50
    let stores = try (0..<count).map { (index) throws(BenchError) in try Self.storeName("cold", index) }
    for store in stores {
      try Fixtures.writeJournal(stateDirectory: directory + "/state/stores/\(store)", records: 1_000)
    }
    let daemon = try daemon("m", fsync: "never", directory: directory)
    var samples: [Double] = []
    for store in stores {
      let started = MonotonicClock.now()
      let socket = try daemon.connect(store: store)
      defer { socket.close() }
      try socket.writeAll(Self.increment)
      let answer = try Frames.next(socket, timeout: 10)
      samples.append(MonotonicClock.seconds(from: started, to: MonotonicClock.now()))
      if let problem = Self.checkAck(answer, -4, answer.count) { throw BenchError(problem) }
    }
    let first = try counter(daemon, stores[0])
    guard first == 1_001 else {
      throw BenchError("the cold store's counter is \(first) after its first send, not 1001")
    }
    report.absolute(
      "m", "cold store with a 1,000-record journal: connect → first ack, p50 of \(count)", percentile(samples, 0.5),
      .milliseconds, target: .atMost(0.005), note: "p99 \(Unit.milliseconds.format(percentile(samples, 0.99)))")
  }

  /// The daemon's resident memory per store opened (each by one send, its
  /// client gone), beyond the daemon's with its default store alone.
  private func measureActiveStores() throws(BenchError) {
    let daemon = try daemon("m", fsync: "never", arguments: ["--max-stores", "\(options.activeStores)"])
    _ = try counter(daemon, nil)
    let before = daemon.residentBytes
    var opened = 0
    var refusal: String?
    for index in 0..<options.activeStores {
      let socket: UnixSocket
      do throws(BenchError) {
        socket = try daemon.connect(store: try Self.storeName("idle", index))
      } catch {
        // A store the daemon cannot open (out of file descriptors, say) ends
        // the figure where it is, and says so.
        refusal = "\(error)"
        break
      }
      defer { socket.close() }
      try socket.writeAll(Self.increment)
      let answer = try Frames.next(socket, timeout: 10)
      if let problem = Self.checkAck(answer, -4, answer.count) {
        throw BenchError("after \(opened) stores: \(problem)")
      }
      opened += 1
    }
    report.absolute(
      "m", "stores opened of \(options.activeStores) asked for", Double(opened), .count,
      target: .atLeast(Double(options.activeStores)), note: refusal.map { String($0.prefix(160)) } ?? "")
    let after = daemon.residentBytes
    report.absolute(
      "m", "RSS per active idle store, \(opened) stores (the seed apps' state included)",
      Double(after - before) / Double(opened), .bytes, target: .atMost(32 * 1024),
      note: "total \(Unit.mebibytes.format(Double(after)))")
  }

  /// Stores closed when idle give back what they held: every descriptor and
  /// thread (under `--fsync always` each open store has a sync thread), and
  /// the memory of their state, as far as the allocator returns it.
  private func measureClosedStores() throws(BenchError) {
    let count = options.smoke ? 100 : 1_000
    let daemon = try daemon(
      "m", fsync: "always", arguments: ["--store-idle-timeout", "0.5", "--max-stores", "\(count)"])
    let control = try daemon.client()
    defer { control.close() }
    let (beforeBytes, beforeHeld) = (daemon.residentBytes, try Self.held(by: daemon.pid))
    for index in 0..<count {
      let socket = try daemon.connect(store: try Self.storeName("brief", index))
      defer { socket.close() }
      try socket.writeAll(Self.increment)
      let answer = try Frames.next(socket, timeout: 10)
      if let problem = Self.checkAck(answer, -4, answer.count) { throw BenchError("store \(index): \(problem)") }
    }
    let deadline = MonotonicClock.now() + 120_000_000_000
    while try Self.storesOpen(control) > 1 {
      guard MonotonicClock.now() < deadline else {
        throw BenchError("\(try Self.storesOpen(control) - 1) of \(count) idle stores were still open after 2 minutes")
      }
      usleep(100_000)
    }
    let afterHeld = try Self.held(by: daemon.pid)
    report.check(
      "m", "descriptors and threads left by \(count) stores closed when idle (--fsync always)",
      "\(afterHeld.descriptors - beforeHeld.descriptors) descriptors, \(afterHeld.threads - beforeHeld.threads) threads",
      holds: afterHeld.descriptors <= beforeHeld.descriptors && afterHeld.threads <= beforeHeld.threads, target: "none")
    let after = daemon.residentBytes
    report.absolute(
      "m", "RSS left per store closed when idle, \(count) stores", Double(after - beforeBytes) / Double(count), .bytes,
      target: nil, note: "total \(Unit.mebibytes.format(Double(after)))")
  }

  /// The daemon's open descriptors and threads.
  private static func held(by pid: pid_t) throws(BenchError) -> (descriptors: Int, threads: Int) {
    do {
      return (try FileIO.list("/proc/\(pid)/fd").count, try FileIO.list("/proc/\(pid)/task").count)
    } catch {
      throw BenchError("cannot count what pid \(pid) holds: \(error)")
    }
  }

  /// How many stores `control`'s daemon has open, the default one included.
  private static func storesOpen(_ control: WireClient) throws(BenchError) -> Int {
    do {
      guard case .object(let status) = try control.status(), case .int(let open)? = status["storesOpen"] else {
        throw BenchError("the status has no storesOpen")
      }
      return open
    } catch let error as BenchError {
      throw error
    } catch {
      throw BenchError("status: \(error)")
    }
  }

  /// Start to READY=1 with many named stores on disk, which the start does
  /// not read.
  private func measureStoresOnDisk() throws(BenchError) {
    let directory = newDirectory("m-disk")
    let stores = directory + "/state/stores"
    for index in 0..<options.storesOnDisk {
      let path = stores + "/disk-\(index)/journal"
      do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      } catch {
        throw BenchError("cannot create \(path): \(error)")
      }
    }
    var samples: [Double] = []
    for _ in 0..<options.samples {
      let daemon = try daemon("m", fsync: "always", directory: directory)
      samples.append(daemon.startSeconds)
    }
    report.absolute(
      "m", "start → READY=1 with \(options.storesOnDisk) stores on disk, median of \(samples.count)",
      percentile(samples, 0.5), .milliseconds, target: .atMost(0.100))
  }

  /// The sum of the counters of `stores`.
  private func total(_ daemon: DaemonUnderTest, _ stores: [StoreName]) throws(BenchError) -> Int {
    var sum = 0
    for store in stores { sum += try counter(daemon, store) }
    return sum
  }

  /// The counter feature's count in `store` (the default store when nil),
  /// read with `get`.
  func counter(_ daemon: DaemonUnderTest, _ store: StoreName? = nil) throws(BenchError) -> Int {
    let control = try daemon.client(store: store)
    defer { control.close() }
    do {
      guard case .int(let count) = try control.get(path: "/counter/count").value else {
        throw BenchError("/counter/count is not a number")
      }
      return count
    } catch {
      throw BenchError("get /counter/count of \(store.map(\.text) ?? "the default store"): \(error)")
    }
  }
}
