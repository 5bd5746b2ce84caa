import Glibc
import Platform

/// h: the daemon's resident memory, idle and with 100 watchers.
extension Benchmark {
  func measureMemory() {
    measure("h") { () throws(BenchError) in
      let daemon = try daemon("h", fsync: "never")
      usleep(useconds_t(min(options.seconds, 1) * 1e6))
      let idle = daemon.residentBytes
      var watchers: [UnixSocket] = []
      defer { for watcher in watchers { watcher.close() } }
      for _ in 0..<100 {
        let watcher = try daemon.connect(name: "watcher")
        watchers.append(watcher)
        try watcher.writeAll(Frames.subscribe())
        _ = try Frames.next(watcher, timeout: 10)
      }
      let sender = try daemon.connect(name: "sender")
      defer { sender.close() }
      // Diffs flowing to every watcher, so their queues and buffers are in use.
      _ = try FanOutDriver.run(
        publisher: sender, watchers: watchers, request: Self.increment, framing: .frames, depth: 16,
        duration: min(options.seconds, 1), latency: false, classify: { _, _, _ in .message(version: nil) },
        checkReply: Self.checkAck)
      let attached = daemon.residentBytes
      report.absolute("h", "daemon RSS, idle", Double(idle), .mebibytes, target: .atMost(20 * 1_048_576))
      report.absolute(
        "h", "RSS added by 100 watchers (after diffs flowed to them)", Double(attached - idle), .mebibytes,
        target: .atMost(10 * 1_048_576), note: "total \(Unit.mebibytes.format(Double(attached)))")
    }
  }
}
