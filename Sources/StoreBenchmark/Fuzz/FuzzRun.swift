import Foundation
import Glibc
import Platform
import Synchronization
import Wire

/// `storedaemon-bench --fuzz`: a release storedaemon with its workers,
/// fuzzed frames from several connections for minutes, and one well-behaved
/// client timing its requests throughout (docs/BENCHMARKS.md, "Fuzzing").
///
/// A crash is the daemon exiting or leaving the well-behaved client without
/// an answer for 10 s. The last line states the frames sent, the crashes, the
/// daemon's peak RSS (`VmHWM`), the client's p99 latency, the workers killed
/// for a missed ping and the longest gap between watchdog pings; the run fails
/// (exit 1) on a crash, a p99 of 50 ms or more, a worker killed, or a gap of
/// `WatchdogSec` or more.
final class FuzzRun: Sendable {
  let minutes: Double
  let connections: Int
  let seed: UInt64
  private let framesSent = Atomic<Int>(0)
  private let stopped = Atomic<Bool>(false)
  /// When the well-behaved client last got an answer, and whether it is
  /// waiting for one (``MonotonicClock.now()``).
  private let lastAnswer = Atomic<UInt64>(0)
  private let waiting = Atomic<Bool>(false)
  private let latencies = Mutex<[Double]>([])

  init(minutes: Double, connections: Int, seed: UInt64) {
    self.minutes = minutes
    self.connections = connections
    self.seed = seed
  }

  /// Runs the whole fuzz run; returns whether it passed.
  func run(benchmark: Benchmark) throws(BenchError) -> Bool {
    // The journal is not synced, so the latencies are the store's, not the
    // disk's; the watchdog is asked for, to see its pings keep their rhythm.
    let daemon = try DaemonUnderTest(
      binaries: benchmark.options.binaries, directory: benchmark.newDirectory("fuzz"), fsync: "never",
      arguments: ["--worker-timeout", "5", "--allow-internal-actions"],
      environment: ["WATCHDOG_USEC": "\(Self.watchdogSeconds * 1_000_000)"])
    say(
      "fuzz: \(connections) fuzzing connections and one well-behaved client for \(minutes) min, seed \(seed); "
        + "storedaemon pid \(daemon.pid), log \(daemon.logPath)")
    let socketPath = daemon.socketPath
    for index in 0..<connections {
      let generator = SplitMix64(state: seed &+ UInt64(index) &* 0x1000_0000_0001)
      Thread.detachNewThread { [self] in fuzz(socketPath, FuzzFrames(random: generator)) }
    }
    Thread.detachNewThread { [self] in behaveWell(socketPath) }

    let start = MonotonicClock.now()
    let end = start + UInt64(minutes * 60e9)
    var crashes = 0
    var nextReport = start + 60_000_000_000
    var lastPing = start
    var longestPingGap = 0.0
    while MonotonicClock.now() < end {
      usleep(200_000)
      let now = MonotonicClock.now()
      for ping in daemon.drainWatchdogPings() {
        longestPingGap = max(longestPingGap, MonotonicClock.seconds(from: lastPing, to: ping))
        lastPing = ping
      }
      if !daemon.isRunning {
        say("fuzz: CRASH: storedaemon exited; its log: \(daemon.logPath)")
        crashes += 1
        break
      }
      if waiting.load(ordering: .relaxed), now > lastAnswer.load(ordering: .relaxed) + 10_000_000_000 {
        say("fuzz: CRASH: storedaemon has not answered the well-behaved client for 10 s")
        crashes += 1
        break
      }
      if now >= nextReport {
        nextReport += 60_000_000_000
        let sample = latencies.withLock { $0 }
        say(
          "fuzz: \(Int(MonotonicClock.seconds(from: start, to: now))) s: \(framesSent.load(ordering: .relaxed)) frames, "
            + "client p99 \(milliseconds(percentile(sample, 0.99))) over \(sample.count) requests, "
            + "RSS \(mebibytes(Self.status("VmRSS", of: daemon.pid)))")
      }
    }
    stopped.store(true, ordering: .relaxed)
    let peak = Self.status("VmHWM", of: daemon.pid)
    for _ in 0..<50 {
      usleep(200_000)
      _ = daemon.drainWatchdogPings()
    }
    let idle = Self.status("VmRSS", of: daemon.pid)
    let killed = crashes > 0 ? 0 : try workersKilled(daemon)
    daemon.stop()

    let sample = latencies.withLock { $0 }
    let p99 = percentile(sample, 0.99)
    say(
      "fuzz: \(framesSent.load(ordering: .relaxed)) frames sent in \(minutes) min; crashes \(crashes); "
        + "daemon peak RSS \(mebibytes(peak)) (\(mebibytes(idle)) after 10 s idle); "
        + "well-behaved client p99 \(milliseconds(p99)) (p50 \(milliseconds(percentile(sample, 0.5))), "
        + "max \(milliseconds(sample.max() ?? .nan)), \(sample.count) requests); "
        + "workers killed for a missed ping \(killed); longest gap between watchdog pings "
        + String(format: "%.2f s of %d s", longestPingGap, Self.watchdogSeconds))
    return crashes == 0 && p99 < 0.050 && killed == 0 && longestPingGap < Double(Self.watchdogSeconds)
  }

  /// How long a fuzzing connection waits between two writes: about a
  /// hundred frames a second each, several times the rate of the fault hunt
  /// this reproduces, yet leaving the machine's cores to the daemon.
  static let pause: useconds_t = 10_000

  /// The `WatchdogSec` the daemon is told (it pings every half of it).
  static let watchdogSeconds = 2

  // MARK: Connections

  /// One fuzzing connection, reconnecting whenever the daemon closes it.
  private func fuzz(_ socketPath: String, _ frames: FuzzFrames) {
    var frames = frames
    var descriptor: Int32?
    while !stopped.load(ordering: .relaxed) {
      guard let connected = descriptor ?? connect(socketPath, hello: frames.hello()) else {
        usleep(10_000)
        continue
      }
      descriptor = connected
      let output = frames.next()
      framesSent.add(1, ordering: .relaxed)
      if output.endsConnection || !write(connected, output.bytes) || !drain(connected) {
        close(connected)
        descriptor = nil
      }
      usleep(Self.pause)
    }
    if let descriptor { close(descriptor) }
  }

  /// The well-behaved client: a request every 10 ms, each timed.
  private func behaveWell(_ socketPath: String) {
    let client: WireClient
    do {
      client = try WireClient(path: socketPath, clientName: "well-behaved")
    } catch {
      say("fuzz: the well-behaved client cannot connect: \(error)")
      return
    }
    var count = 0
    while !stopped.load(ordering: .relaxed) {
      count += 1
      let start = MonotonicClock.now()
      lastAnswer.store(start, ordering: .relaxed)
      waiting.store(true, ordering: .relaxed)
      do {
        if count % 2 == 0 {
          _ = try client.send(path: "counter.incrementButtonTapped")
        } else {
          _ = try client.get(path: "/counter")
        }
      } catch {
        say("fuzz: the well-behaved client's request failed: \(error)")
        return
      }
      waiting.store(false, ordering: .relaxed)
      let elapsed = MonotonicClock.seconds(from: start, to: MonotonicClock.now())
      latencies.withLock { $0.append(elapsed) }
      usleep(10_000)
    }
  }

  /// A connection that has written `hello` (whatever it is), or nil.
  private func connect(_ socketPath: String, hello: [UInt8]) -> Int32? {
    guard let descriptor = try? UnixSocket.connect(to: socketPath).descriptor else { return nil }
    // A write the daemon does not take within 5 s ends the connection.
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard write(descriptor, hello), drain(descriptor) else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  private func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
      }
      return true
    }
  }

  /// Reads whatever the daemon has sent; false once it has closed.
  private func drain(_ descriptor: Int32) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count > 0 { continue }
      if count == 0 { return false }
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
    }
  }

  // MARK: Daemon

  /// Workers the daemon killed for a missed ping, from its log.
  private func workersKilled(_ daemon: DaemonUnderTest) throws(BenchError) -> Int {
    let log = (try? String(contentsOfFile: daemon.logPath, encoding: .utf8)) ?? ""
    return log.components(separatedBy: "has not answered a ping").count - 1
  }

  /// A `/proc/PID/status` field in bytes (`VmRSS`, `VmHWM`).
  static func status(_ field: String, of pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return kilobytes * 1024
  }
}

/// Prints `line` at once, unbuffered: a run lasts minutes.
private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
private func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
private func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
