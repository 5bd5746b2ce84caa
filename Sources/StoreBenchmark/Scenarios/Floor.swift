extension Benchmark {
  /// The floor: a one-byte round trip between two processes over AF_UNIX.
  func measureFloor() {
    measure("floor") { () throws(BenchError) in _ = try pingPong() }
  }

  /// The ping-pong's p50, measured once per run.
  func pingPong() throws(BenchError) -> Double {
    if let pingPongP50 { return pingPongP50 }
    let samples = try PingPong.measure(duration: options.seconds, log: newDirectory("pingpong") + "/peer.log")
    let p50 = percentile(samples, 0.5)
    pingPongP50 = p50
    report.absolute(
      "floor", "AF_UNIX ping-pong, two processes, 1 byte, p50", p50, .microseconds, target: nil,
      note: "p99 \(Unit.microseconds.format(percentile(samples, 0.99)))")
    return p50
  }
}
