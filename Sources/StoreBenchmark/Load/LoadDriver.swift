import Glibc
import Platform

/// What a load run measured.
struct LoadResult {
  var replies: Int
  var seconds: Double
  /// Request → reply times in seconds, if they were asked for.
  var latencies: [Double]

  var perSecond: Double { Double(replies) / seconds }
}

/// Request/reply load on many connections from one thread, with poll(2), the
/// way redis-benchmark drives Redis: the same client, and so the same client
/// cost, for the reference and for storedaemon.
enum LoadDriver {
  /// Keeps `depth` copies of `request` outstanding on every connection for
  /// `duration` seconds, then waits for the replies still owed. `check` sees
  /// each reply's bytes and returns what is wrong with it, if anything.
  static func run(
    _ sockets: [UnixSocket], request: [UInt8], depth: Int, framing: Framing, duration: Double,
    recordLatencies: Bool = false, check: (_ buffer: [UInt8], _ start: Int, _ end: Int) -> String? = { _, _, _ in nil }
  ) throws(BenchError) -> LoadResult {
    let connections = sockets.map(LoadConnection.init)
    for socket in sockets { socket.setNonBlocking() }
    let batch = Array([[UInt8]](repeating: request, count: depth).joined())
    var latencies: [Double] = []
    if recordLatencies { latencies.reserveCapacity(1 << 20) }
    let start = MonotonicClock.now()
    let stopAt = start + UInt64(duration * 1e9)
    var last = start
    for connection in connections {
      try connection.send(batch, requestLength: request.count, count: depth, at: MonotonicClock.now())
    }
    var pollers = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    var stopping = false
    while true {
      let now = MonotonicClock.now()
      if !stopping && now >= stopAt { stopping = true }
      if stopping {
        if connections.allSatisfy({ $0.outstanding == 0 }) { break }
        if now > stopAt + 10_000_000_000 {
          throw BenchError("\(connections.reduce(0) { $0 + $1.outstanding }) replies still missing 10 s after the run")
        }
      }
      let ready = poll(&pollers, nfds_t(pollers.count), 100)
      if ready <= 0 { continue }
      for index in pollers.indices where pollers[index].revents != 0 {
        let connection = connections[index]
        let open = try connection.readReplies(framing) { (start, end, sent) throws(BenchError) in
          if let problem = check(connection.buffer, start, end) { throw BenchError(problem) }
          last = MonotonicClock.now()
          if recordLatencies { latencies.append(MonotonicClock.seconds(from: sent, to: last)) }
        }
        guard open else { throw BenchError("the server closed a connection during the run") }
        if !stopping {
          try connection.send(
            batch, requestLength: request.count, count: depth - connection.outstanding, at: MonotonicClock.now())
        }
      }
    }
    return LoadResult(
      replies: connections.reduce(0) { $0 + $1.replies }, seconds: MonotonicClock.seconds(from: start, to: last),
      latencies: latencies)
  }
}
