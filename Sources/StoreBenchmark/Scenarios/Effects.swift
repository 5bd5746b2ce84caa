import ComposableCore
import Glibc
import JSON
import Platform
import Wire

/// f, g: effects through the timer worker, and the worker's restart.
extension Benchmark {
  static let roll = Frames.send("dice.view.rollButtonTapped", wait: true)
  static let resetRolls = Frames.send("dice.view.resetHistory")

  func measureEffects() {
    measure("f") { () throws(BenchError) in
      let floor = try pingPong()
      let daemon = try daemon("f", fsync: "never", arguments: ["--dice-roll", "0"])
      let connection = try daemon.connect()
      defer { connection.close() }
      var effect: [Double] = []
      var total: [Double] = []
      let end = MonotonicClock.now() + UInt64(options.seconds * 1e9)
      while MonotonicClock.now() < end || effect.count < 10 {
        if effect.count % 200 == 199 {
          // The history grows by one roll each time; keep the state small.
          try connection.writeAll(Self.resetRolls)
          _ = try Frames.next(connection, timeout: 10)
        }
        let start = MonotonicClock.now()
        try connection.writeAll(Self.roll)
        let ack = try Frames.next(connection, timeout: 10)
        let acked = MonotonicClock.now()
        let settled = try Frames.next(connection, timeout: 10)
        let done = MonotonicClock.now()
        guard FrameSummary(ack, 0, ack.count).type == "ack", FrameSummary(settled, 0, settled.count).type == "settled",
          String(decoding: settled, as: UTF8.self).contains("rollCompleted")
        else {
          throw BenchError(
            "expected an ack and a settled roll, got \(String(decoding: ack, as: UTF8.self)) and "
              + String(decoding: settled.prefix(400), as: UTF8.self))
        }
        effect.append(MonotonicClock.seconds(from: acked, to: done))
        total.append(MonotonicClock.seconds(from: start, to: done))
      }
      report.ratio(
        "f", "timer effect, 0 delay: ack → settled (request out, reply reduced), p50", percentile(effect, 0.5),
        .microseconds, reference: ("ping-pong", floor), target: .atMost(2.5))
      report.absolute(
        "f", "the same, send → settled, p50", percentile(total, 0.5), .microseconds, target: nil,
        note: "p99 \(Unit.microseconds.format(percentile(total, 0.99)))")
    }
    measure("g") { () throws(BenchError) in
      var samples: [Double] = []
      for _ in 0..<options.samples {
        samples.append(try restartTime())
      }
      report.absolute(
        "g", "timer worker: kill -9 → serving again (a roll lands), median of \(samples.count)",
        percentile(samples, 0.5),
        .milliseconds, target: .atMost(0.010), note: "max \(Unit.milliseconds.format(samples.max() ?? .nan))")
    }
  }

  /// Kills the timer worker of a fresh daemon, after one roll, and rolls
  /// until a roll lands (one sent while the worker is down either waits for
  /// it or fails and is sent again); returns the seconds from the kill to
  /// that roll's `settled`.
  private func restartTime() throws(BenchError) -> Double {
    let daemon = try daemon("g", fsync: "never", arguments: ["--dice-roll", "0"])
    // Every worker has said hello once the daemon is ready; wait for the timer's pid.
    var victim: pid_t?
    for _ in 0..<100 where victim == nil {
      victim = try daemon.workerPID("timer")
      if victim == nil { usleep(10_000) }
    }
    guard let victim else { throw BenchError("the timer worker never showed as running in status") }
    let control = try daemon.client()
    // One roll first: a fresh daemon's first action pays one-time costs
    // (about 3 ms: the runtime's first type lookups on that path), which are
    // not the restart's.
    let warmUp: String
    do {
      warmUp = CanonicalJSON.text(try control.sendAndWait(path: "dice.view.rollButtonTapped", timeout: .seconds(5)).2)
    } catch {
      throw BenchError("rolling before the kill: \(error)")
    }
    guard warmUp.contains("rollCompleted") else {
      throw BenchError("the roll before the kill did not land: \(warmUp.prefix(400))")
    }
    kill(victim, SIGKILL)
    let killed = MonotonicClock.now()
    while true {
      do {
        let (_, _, changes) = try control.sendAndWait(path: "dice.view.rollButtonTapped", timeout: .seconds(5))
        if CanonicalJSON.text(changes).contains("rollCompleted") { break }
      } catch {
        throw BenchError("rolling after the kill: \(error)")
      }
      if MonotonicClock.seconds(from: killed, to: MonotonicClock.now()) > 10 {
        throw BenchError("no roll landed within 10 s of killing the timer worker")
      }
    }
    let elapsed = MonotonicClock.seconds(from: killed, to: MonotonicClock.now())
    guard let replacement = try daemon.workerPID("timer"), replacement != victim else {
      throw BenchError("a roll landed but no new timer worker is running")
    }
    return elapsed
  }
}
