import Glibc
import Platform

/// d: one sender, many watchers, beside Redis pub/sub.
extension Benchmark {
  func measureFanOut() {
    measure("d") { () throws(BenchError) in
      for watchers in [1, 10, 100] {
        let ours = try fanOutDaemon(watchers: watchers)
        let theirs = try fanOutRedis(subscribers: watchers, payloadBytes: max(ours.throughput.messageBytes - 4, 1))
        report.ratio(
          "d", "diffs delivered/s, 1 sender pipelining 16, \(watchers) watcher(s)", ours.throughput.perSecond,
          .perSecond,
          reference: theirs.map { ("Redis pub/sub, \(watchers) subscriber(s)", $0.throughput.perSecond) },
          target: watchers == 100 ? .atLeast(1.0) : nil)
        report.ratio(
          "d", "send → last of \(watchers) watcher(s) received, p50", percentile(ours.latency.latencies, 0.5),
          .microseconds,
          reference: theirs.map { ("Redis publish → last subscriber", percentile($0.latency.latencies, 0.5)) },
          target: nil)
        let missed = ours.throughput.missed + ours.latency.missed
        report.check(
          "d", "diffs missed by \(watchers) watcher(s)",
          "\(missed) of \(ours.throughput.delivered + ours.latency.delivered)",
          holds: missed == 0, target: "none")
      }
    }
  }

  private func fanOutDaemon(watchers count: Int) throws(BenchError) -> (throughput: FanOutResult, latency: FanOutResult)
  {
    let daemon = try daemon("d\(count)", fsync: "never")
    var sockets: [UnixSocket] = []
    defer { for socket in sockets { socket.close() } }
    for _ in 0..<count {
      let watcher = try daemon.connect(name: "watcher")
      sockets.append(watcher)
      try watcher.writeAll(Frames.subscribe())
      let snapshot = try Frames.next(watcher, timeout: 10)
      guard FrameSummary(snapshot, 0, snapshot.count).type == "snapshot" else {
        throw BenchError("expected a snapshot, got \(String(decoding: snapshot.prefix(200), as: UTF8.self))")
      }
    }
    let sender = try daemon.connect(name: "sender")
    sockets.append(sender)
    let classify = { (buffer: [UInt8], start: Int, end: Int) -> FanOutDriver.Event in
      let summary = FrameSummary(buffer, start + 4, end)
      switch summary.type {
      case "diff": return .message(version: summary.version)
      case "heartbeat": return .ignored
      default: return .lost(String(decoding: buffer[(start + 4)..<min(end, start + 204)], as: UTF8.self))
      }
    }
    let throughput = try FanOutDriver.run(
      publisher: sender, watchers: Array(sockets.dropLast()), request: Self.increment, framing: .frames, depth: 16,
      duration: options.seconds, latency: false, classify: classify, checkReply: Self.checkAck)
    let latency = try FanOutDriver.run(
      publisher: sender, watchers: Array(sockets.dropLast()), request: Self.increment, framing: .frames, depth: 1,
      duration: options.seconds / 2, latency: true, classify: classify, checkReply: Self.checkAck)
    return (throughput, latency)
  }

  private func fanOutRedis(subscribers count: Int, payloadBytes: Int) throws(BenchError)
    -> (throughput: FanOutResult, latency: FanOutResult)?
  {
    guard let redis = try redis() else { return nil }
    var sockets: [UnixSocket] = []
    defer { for socket in sockets { socket.close() } }
    for _ in 0..<count {
      let subscriber = try redis.connect()
      sockets.append(subscriber)
      try RedisServer.command(subscriber, ["SUBSCRIBE", "diffs"])
    }
    let publisher = try redis.connect()
    sockets.append(publisher)
    let publish = RedisServer.encode(["PUBLISH", "diffs", String(repeating: "x", count: payloadBytes)])
    let classify = { (_: [UInt8], _: Int, _: Int) -> FanOutDriver.Event in .message(version: nil) }
    let throughput = try FanOutDriver.run(
      publisher: publisher, watchers: Array(sockets.dropLast()), request: publish, framing: .resp, depth: 16,
      duration: options.seconds, latency: false, classify: classify, checkReply: RedisServer.check)
    let latency = try FanOutDriver.run(
      publisher: publisher, watchers: Array(sockets.dropLast()), request: publish, framing: .resp, depth: 1,
      duration: options.seconds / 2, latency: true, classify: classify, checkReply: RedisServer.check)
    return (throughput, latency)
  }
}
