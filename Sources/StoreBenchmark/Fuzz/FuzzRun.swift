import Foundation
import Glibc
import JSON
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
  /// The daemon fuzzed: `storedaemon`, or a hosted app's executable beside it.
  let daemonName: String
  /// Whether only the app's actions are sent, not the hostile frames.
  let actionsOnly: Bool
  /// More of the daemon's command line (`--worker KIND=PATH`).
  let daemonArguments: [String]
  /// Whether a p99 of 50 ms or more, or a watchdog gap of `WatchdogSec` or
  /// more, fails the run; otherwise they are only reported.
  let judgesLatency: Bool
  private let framesSent = Atomic<Int>(0)
  /// What the schema's sends got: acknowledgements, refusals of valid ones
  /// (the feature refused them for the state), refusals of spoilt ones.
  private let schemaAcked = Atomic<Int>(0)
  private let schemaRefusedValid = Atomic<Int>(0)
  private let schemaRefused = Atomic<Int>(0)
  /// Sends answered wrongly: a spoilt one taken, any one answered otherwise
  /// than with an acknowledgement or `invalid_action`, or not at all.
  private let schemaFailures = Mutex<[String]>([])
  private let stopped = Atomic<Bool>(false)
  /// When the well-behaved client last got an answer, and whether it is
  /// waiting for one (``MonotonicClock.now()``).
  private let lastAnswer = Atomic<UInt64>(0)
  private let waiting = Atomic<Bool>(false)
  private let latencies = Mutex<[Double]>([])

  init(
    minutes: Double, connections: Int, seed: UInt64, daemonName: String = "storedaemon", actionsOnly: Bool = false,
    daemonArguments: [String] = [], judgesLatency: Bool = true
  ) {
    self.minutes = minutes
    self.connections = connections
    self.seed = seed
    self.daemonName = daemonName
    self.actionsOnly = actionsOnly
    self.daemonArguments = daemonArguments
    self.judgesLatency = judgesLatency
  }

  /// Runs the whole fuzz run; returns whether it passed.
  func run(benchmark: Benchmark) throws(BenchError) -> Bool {
    // The journal is not synced, so the latencies are the store's, not the
    // disk's; the watchdog is asked for, to see its pings keep their rhythm.
    let daemon = try DaemonUnderTest(
      binaries: benchmark.options.binaries, executable: daemonName, directory: benchmark.newDirectory("fuzz"),
      fsync: "never",
      arguments: ["--worker-timeout", "5", "--allow-internal-actions"] + daemonArguments,
      environment: ["WATCHDOG_USEC": "\(Self.watchdogSeconds * 1_000_000)"])
    say(
      "fuzz: \(connections) fuzzing connections and one well-behaved client for \(minutes) min, seed \(seed); "
        + "storedaemon pid \(daemon.pid), log \(daemon.logPath)")
    let socketPath = daemon.socketPath
    let listing = try Self.listing(socketPath)
    for index in 0..<connections {
      let generator = SplitMix64(state: seed &+ UInt64(index) &* 0x1000_0000_0001)
      if !actionsOnly { Thread.detachNewThread { [self] in fuzz(socketPath, FuzzFrames(random: generator)) } }
      let schemaGenerator = SplitMix64(state: seed &+ UInt64(index) &* 0x2000_0000_0003)
      let sends = SchemaSends(actions: listing.all, random: schemaGenerator)
      Thread.detachNewThread { [self] in fuzzActions(socketPath, sends) }
    }
    Thread.detachNewThread { [self] in
      behaveWell(socketPath, sending: listing.wellBehavedSend, getting: listing.wellBehavedGet)
    }

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
    let verified = crashes > 0 ? false : verify(daemon, binaries: benchmark.options.binaries)

    let sample = latencies.withLock { $0 }
    let p99 = percentile(sample, 0.99)
    let failures = schemaFailures.withLock { $0 }
    say(
      "fuzz: the app's actions: \(schemaAcked.load(ordering: .relaxed)) acknowledged, "
        + "\(schemaRefusedValid.load(ordering: .relaxed)) valid ones refused for the state, "
        + "\(schemaRefused.load(ordering: .relaxed)) spoilt ones refused, \(failures.count) answered wrongly")
    for failure in failures.prefix(10) { say("fuzz: WRONG ANSWER: \(failure)") }
    say(
      "fuzz: \(framesSent.load(ordering: .relaxed)) frames sent in \(minutes) min; crashes \(crashes); "
        + "daemon peak RSS \(mebibytes(peak)) (\(mebibytes(idle)) after 10 s idle); "
        + "well-behaved client p99 \(milliseconds(p99)) (p50 \(milliseconds(percentile(sample, 0.5))), "
        + "max \(milliseconds(sample.max() ?? .nan)), \(sample.count) requests); "
        + "workers killed for a missed ping \(killed); longest gap between watchdog pings "
        + String(format: "%.2f s of %d s", longestPingGap, Self.watchdogSeconds)
        + "; verify " + (verified ? "reproduces every version" : "FAILED"))
    let quick = p99 < 0.050 && longestPingGap < Double(Self.watchdogSeconds)
    return crashes == 0 && (quick || !judgesLatency) && killed == 0 && failures.isEmpty && verified
  }

  /// What the daemon lists: every action, for the schema's sends, and the
  /// well-behaved client's requests: a client's action without values (the
  /// counter's where there is one), and the smallest part of the state.
  private static func listing(_ socketPath: String) throws(BenchError) -> (
    all: JSONValue, wellBehavedSend: String, wellBehavedGet: String
  ) {
    do {
      let client = try WireClient(path: socketPath, clientName: "fuzz-listing")
      let all = try client.actions(all: true)
      guard case .array(let entries) = try client.actions() else { throw BenchError("'actions' is not a list") }
      var paths: [String] = []
      for case .object(let fields) in entries {
        guard case .string(let path)? = fields["path"], fields["arguments"] == .array([]), fields["ids"] == .array([])
        else { continue }
        paths.append(path)
      }
      guard let send = paths.first(where: { $0 == "counter.incrementButtonTapped" }) ?? paths.first else {
        throw BenchError("the daemon lists no action without values for the well-behaved client to send")
      }
      var get = ""
      if case .object(let members) = try client.get(path: "").value,
        let smallest = members.min(by: { CanonicalJSON.encode($0.value).count < CanonicalJSON.encode($1.value).count })
      {
        get = JSONPointer(tokens: [smallest.key]).description
      }
      return (all, send, get)
    } catch let error as BenchError {
      throw error
    } catch {
      throw BenchError("cannot list the daemon's actions: \(error)")
    }
  }

  /// Whether `verify` replays the fuzzed journal to the same versions.
  private func verify(_ daemon: DaemonUnderTest, binaries: String) -> Bool {
    let output = daemon.directory + "/verify.log"
    do {
      let child = try Child(
        [binaries + "/" + daemonName, "verify", "--state-dir", daemon.stateDirectory] + daemonArguments,
        environment: [:],
        output: output)
      let status = child.wait()
      if status != 0 {
        say("fuzz: verify exited \(status); its output: \(output)")
        return false
      }
      return true
    } catch {
      say("fuzz: cannot run verify: \(error)")
      return false
    }
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

  /// One connection sending the app's actions, valid and spoilt
  /// (``SchemaSends``), each answer checked.
  private func fuzzActions(_ socketPath: String, _ sends: SchemaSends) {
    var sends = sends
    var client: WireClient?
    while !stopped.load(ordering: .relaxed) {
      guard let connected = client ?? (try? WireClient(path: socketPath, clientName: "fuzz-actions")) else {
        usleep(10_000)
        continue
      }
      client = connected
      guard let send = sends.next() else { return }
      framesSent.add(1, ordering: .relaxed)
      do {
        switch send.input {
        case .path(let path, let arguments): _ = try connected.send(path: path, arguments: arguments)
        case .json(let action): _ = try connected.send(action: action)
        }
        if send.isValid {
          schemaAcked.add(1, ordering: .relaxed)
        } else {
          schemaFailures.withLock { $0.append("\(send.note) was taken: \(Self.excerpt(send.input))") }
        }
      } catch .rejected(let code, let message)
        where !message.isEmpty && (code == .invalidAction || (!send.isValid && code == .invalidJSON))
      {
        if !send.isValid {
          schemaRefused.add(1, ordering: .relaxed)
        } else if message.contains(" was not applied: ") {
          // The feature dropped it for the state it found (nothing to dismiss).
          schemaRefusedValid.add(1, ordering: .relaxed)
        } else {
          schemaFailures.withLock { $0.append("\(send.note) was refused: \(message): \(Self.excerpt(send.input))") }
        }
      } catch {
        if !stopped.load(ordering: .relaxed) {
          schemaFailures.withLock { $0.append("\(send.note): \(error): \(Self.excerpt(send.input))") }
        }
        client = nil
      }
      usleep(Self.pause)
    }
  }

  /// What was sent, cut to a line.
  private static func excerpt(_ input: ClientMessage.ActionInput) -> String {
    let text =
      switch input {
      case .path(let path, let arguments): ([path] + arguments).joined(separator: " ")
      case .json(let json): CanonicalJSON.text(json)
      }
    return text.count > 200 ? String(text.prefix(200)) + "…" : text
  }

  /// The well-behaved client: a request every 10 ms, each timed.
  private func behaveWell(_ socketPath: String, sending path: String, getting part: String) {
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
          _ = try client.send(path: path)
        } else {
          _ = try client.get(path: part)
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
