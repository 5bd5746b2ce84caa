import ComposableCore
import Glibc
import Platform
import Wire

/// a, b, c: actions sent and acknowledged, beside Redis INCR.
extension Benchmark {
  static let increment = Frames.send("counter.incrementButtonTapped")
  static let incr = RedisServer.encode(["INCR", "counter"])

  func measureRequestReply() {
    measure("a") { () throws(BenchError) in
      let ours = try loadDaemon(try daemon("a", fsync: "never"), clients: 1, depth: 1, latencies: true)
      let theirs = try redis().map { redis throws(BenchError) in
        try loadRedis(redis, clients: 1, depth: 1, latencies: true)
      }
      report.ratio(
        "a", "send → ack, 1 client, no fsync, p50", percentile(ours.latencies, 0.5), .microseconds,
        reference: theirs.map { ("Redis INCR p50", percentile($0.latencies, 0.5)) }, target: .atMost(1.2))
      report.ratio(
        "a", "send → ack, 1 client, no fsync, p99", percentile(ours.latencies, 0.99), .microseconds,
        reference: theirs.map { ("Redis INCR p99", percentile($0.latencies, 0.99)) }, target: nil)
    }
    measure("b") { () throws(BenchError) in
      let daemon = try daemon("b", fsync: "never")
      let redis = try redis()
      let (ours, theirs) = try inTurn(
        { () throws(BenchError) in try loadDaemon(daemon, clients: 50, depth: 1) },
        redis
      ) { redis throws(BenchError) in try loadRedis(redis, clients: 50, depth: 1) }
      report.ratio(
        "b", "actions/s, 50 clients, no fsync", ours.perSecond, .perSecond,
        reference: theirs.map { ("Redis INCR, 50 clients", $0.perSecond) }, target: .atLeast(1.0))
      let (oursPipelined, theirsPipelined) = try inTurn(
        { () throws(BenchError) in try loadDaemon(daemon, clients: 1, depth: 16) },
        redis
      ) { redis throws(BenchError) in try loadRedis(redis, clients: 1, depth: 16) }
      report.ratio(
        "b", "actions/s, 1 client pipelining 16, no fsync", oursPipelined.perSecond, .perSecond,
        reference: theirsPipelined.map { ("Redis INCR, pipelined 16", $0.perSecond) }, target: .atLeast(0.8))
    }
    measure("c") { () throws(BenchError) in
      let daemon = try daemon("c", fsync: "always")
      let redis = try redis(appendfsyncAlways: true)
      let one = try loadDaemon(daemon, clients: 1, depth: 1)
      let redisOne = try redis.map { redis throws(BenchError) in try loadRedis(redis, clients: 1, depth: 1) }
      report.ratio(
        "c", "actions/s, 1 client, fsync always (group commit)", one.perSecond, .perSecond,
        reference: redisOne.map { ("Redis appendfsync always, 1 client", $0.perSecond) }, target: nil)
      let (fifty, redisFifty) = try inTurn(
        { () throws(BenchError) in try loadDaemon(daemon, clients: 50, depth: 1) },
        redis
      ) { redis throws(BenchError) in try loadRedis(redis, clients: 50, depth: 1) }
      report.ratio(
        "c", "actions/s, 50 clients, fsync always (group commit)", fifty.perSecond, .perSecond,
        reference: redisFifty.map { ("Redis appendfsync always, 50 clients", $0.perSecond) }, target: .atLeast(1.0))
      localFsyncFigures = (one.perSecond, fifty.perSecond)
    }
  }

  /// Runs `ours` and `theirs` (when there is a `redis` to compare with) in turn,
  /// ``BenchOptions/rounds`` times, and gives each side's median load by
  /// throughput. On these machines one load of a pair can meet a state of
  /// the scheduler the other does not (a pipelined Redis load once ran 2.5 ×
  /// faster in one full run than in the three that followed), and the
  /// median of loads taken in turn keeps one such load from deciding a ratio.
  func inTurn(
    _ ours: () throws(BenchError) -> LoadResult, _ redis: RedisServer?,
    theirs: (RedisServer) throws(BenchError) -> LoadResult
  ) throws(BenchError) -> (ours: LoadResult, theirs: LoadResult?) {
    var oursRuns: [LoadResult] = []
    var theirsRuns: [LoadResult] = []
    for _ in 0..<max(1, options.rounds) {
      oursRuns.append(try ours())
      if let redis { theirsRuns.append(try theirs(redis)) }
    }
    func median(_ runs: [LoadResult]) -> LoadResult? {
      runs.isEmpty ? nil : runs.sorted { $0.perSecond < $1.perSecond }[runs.count / 2]
    }
    return (median(oursRuns)!, median(theirsRuns))
  }

  /// Sends `counter.incrementButtonTapped` from `clients` connections, `depth`
  /// deep each, and checks the counter moved by exactly the acknowledged count.
  func loadDaemon(_ daemon: DaemonUnderTest, clients: Int, depth: Int, latencies: Bool = false) throws(BenchError)
    -> LoadResult
  {
    let before = try counter(daemon)
    var sockets: [UnixSocket] = []
    defer { for socket in sockets { socket.close() } }
    for _ in 0..<clients { sockets.append(try daemon.connect()) }
    let result = try LoadDriver.run(
      sockets, request: Self.increment, depth: depth, framing: .frames, duration: options.seconds,
      recordLatencies: latencies, check: Self.checkAck)
    let after = try counter(daemon)
    guard after - before == result.replies else {
      throw BenchError("\(result.replies) increments were acknowledged, but the counter moved by \(after - before)")
    }
    return result
  }

  func loadRedis(_ redis: RedisServer, clients: Int, depth: Int, latencies: Bool = false) throws(BenchError)
    -> LoadResult
  {
    var sockets: [UnixSocket] = []
    defer { for socket in sockets { socket.close() } }
    for _ in 0..<clients { sockets.append(try redis.connect()) }
    return try LoadDriver.run(
      sockets, request: Self.incr, depth: depth, framing: .resp, duration: options.seconds,
      recordLatencies: latencies, check: RedisServer.check)
  }
}
