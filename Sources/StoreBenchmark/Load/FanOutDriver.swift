import Glibc
import Platform

/// What a fan-out run measured.
struct FanOutResult {
  /// Messages received, summed over the watchers.
  var delivered: Int
  var seconds: Double
  /// Messages a watcher never got, or got out of order, or replaced by a resync.
  var missed: Int
  /// Publish → last watcher received, in seconds (latency runs only).
  var latencies: [Double]
  /// The size of a message as a watcher receives it, framing included.
  var messageBytes: Int

  var perSecond: Double { Double(delivered) / seconds }
}

/// One publisher and many watchers on one thread, for storedaemon's diffs and
/// Redis's pub/sub alike: every reply the publisher gets is one published
/// message, which every watcher must then receive.
enum FanOutDriver {
  /// What a watcher's message is.
  enum Event {
    /// A published message; its version, where the protocol has one.
    case message(version: UInt64?)
    /// Traffic that is not a message (a heartbeat).
    case ignored
    /// Something that means messages were lost (a resync snapshot).
    case lost(String)
  }

  /// Throughput: the publisher keeps `depth` messages outstanding for
  /// `duration` seconds; then the run waits until every watcher has them all.
  /// Latency (`depth` 1, `latency` true): each message is published only once
  /// every watcher has received the one before.
  static func run(
    publisher: UnixSocket, watchers: [UnixSocket], request: [UInt8], framing: Framing, depth: Int, duration: Double,
    latency: Bool, classify: (_ buffer: [UInt8], _ start: Int, _ end: Int) -> Event,
    checkReply: (_ buffer: [UInt8], _ start: Int, _ end: Int) -> String?
  ) throws(BenchError) -> FanOutResult {
    let sender = LoadConnection(publisher)
    let listeners = watchers.map(LoadConnection.init)
    for socket in [publisher] + watchers { socket.setNonBlocking() }
    var received = [Int](repeating: 0, count: watchers.count)
    var lastVersion = [UInt64?](repeating: nil, count: watchers.count)
    var missed = 0
    var published = 0
    var messageBytes = 0
    var latencies: [Double] = []
    let batch = Array([[UInt8]](repeating: request, count: depth).joined())
    var pollers = ([publisher] + watchers).map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }

    let start = MonotonicClock.now()
    let stopAt = start + UInt64(duration * 1e9)
    var last = start
    var latencyStart = start
    try sender.send(batch, requestLength: request.count, count: depth, at: start)
    while true {
      let now = MonotonicClock.now()
      let stopping = now >= stopAt
      if stopping && sender.outstanding == 0 && received.allSatisfy({ $0 >= published }) { break }
      if now > stopAt + 10_000_000_000 {
        missed += received.reduce(0) { $0 + max(0, published - $1) }
        break
      }
      guard poll(&pollers, nfds_t(pollers.count), 100) > 0 else { continue }
      if pollers[0].revents != 0 {
        let open = try sender.readReplies(framing) { (start, end, _) throws(BenchError) in
          if let problem = checkReply(sender.buffer, start, end) { throw BenchError(problem) }
          published += 1
        }
        guard open else { throw BenchError("the server closed the publisher's connection") }
        if !stopping && !latency {
          try sender.send(
            batch, requestLength: request.count, count: depth - sender.outstanding, at: MonotonicClock.now())
        }
      }
      for index in listeners.indices where pollers[index + 1].revents != 0 {
        let listener = listeners[index]
        let open = try listener.readReplies(framing) { (start, end, _) throws(BenchError) in
          switch classify(listener.buffer, start, end) {
          case .ignored:
            return
          case .lost(let what):
            missed += 1
            throw BenchError("a watcher lost messages: it got \(what)")
          case .message(let version):
            if let version, let previous = lastVersion[index], version != previous + 1 { missed += 1 }
            lastVersion[index] = version
            messageBytes = end - start
            received[index] += 1
            last = MonotonicClock.now()
          }
        }
        listener.forgetSends()
        guard open else { throw BenchError("the server closed a watcher's connection") }
      }
      if latency && sender.outstanding == 0 && received.allSatisfy({ $0 == published }) {
        if published > 0 { latencies.append(MonotonicClock.seconds(from: latencyStart, to: last)) }
        if !stopping {
          latencyStart = MonotonicClock.now()
          try sender.send(batch, requestLength: request.count, count: 1, at: latencyStart)
        }
      }
    }
    return FanOutResult(
      delivered: received.reduce(0, +), seconds: MonotonicClock.seconds(from: start, to: last), missed: missed,
      latencies: latencies,
      messageBytes: messageBytes)
  }
}
