import Glibc
import Platform

/// e: one element changed in a collection of 10 … 100,000 elements.
extension Benchmark {
  func measureStateSize() {
    measure("e") { () throws(BenchError) in
      var results: [(elements: Int, seconds: Double, diffBytes: Int)] = []
      for elements in options.collectionSizes {
        let directory = newDirectory("e\(elements)")
        try Fixtures.writeCollectionState(stateDirectory: directory + "/state", elements: elements)
        let daemon = try daemon("e", fsync: "never", directory: directory)
        let (seconds, diffBytes) = try changeOneElement(daemon)
        results.append((elements, seconds, diffBytes))
        report.absolute(
          "e", "one row's counter changed among \(elements) rows: send → ack, p50", seconds, .microseconds, target: nil,
          note: "diff \(diffBytes) B")
      }
      guard let smallest = results.first, let largest = results.last, results.count > 1 else { return }
      report.ratio(
        "e", "\(largest.elements) rows vs \(smallest.elements): time per action", largest.seconds, .microseconds,
        reference: ("\(smallest.elements) rows", smallest.seconds), target: .atMost(1.2))
      report.check(
        "e", "\(largest.elements) rows vs \(smallest.elements): diff size",
        "\(largest.diffBytes) B vs \(smallest.diffBytes) B",
        holds: largest.diffBytes == smallest.diffBytes, target: "the same")
    }
  }

  /// Alternately adds and removes one unit of the first product through its
  /// row's counter (which also changes its cart line), one action at a time,
  /// with a root watcher attached; returns the median send → ack time and
  /// the size of the first (an "add") diff as the watcher received it.
  private func changeOneElement(_ daemon: DaemonUnderTest) throws(BenchError) -> (seconds: Double, diffBytes: Int) {
    let watcher = try daemon.connect(name: "watcher")
    defer { watcher.close() }
    try watcher.writeAll(Frames.subscribe())
    _ = try Frames.next(watcher, timeout: 120)
    let sender = try daemon.connect(name: "sender")
    defer { sender.close() }
    let plus = Frames.send("products.rows[1].addToCart.plusButtonTapped")
    let minus = Frames.send("products.rows[1].addToCart.minusButtonTapped")
    var samples: [Double] = []
    var diffBytes = 0
    let end = MonotonicClock.now() + UInt64(options.seconds * 1e9)
    while MonotonicClock.now() < end || samples.count < 6 {
      let adding = samples.count % 2 == 0
      let start = MonotonicClock.now()
      try sender.writeAll(adding ? plus : minus)
      let ack = try Frames.next(sender, timeout: 60)
      samples.append(MonotonicClock.seconds(from: start, to: MonotonicClock.now()))
      guard FrameSummary(ack, 0, ack.count).type == "ack" else {
        throw BenchError("expected an ack, got \(String(decoding: ack.prefix(300), as: UTF8.self))")
      }
      var diff: [UInt8]
      repeat {
        diff = try Frames.next(watcher, timeout: 60)
      } while FrameSummary(diff, 0, diff.count).type == "heartbeat"
      guard FrameSummary(diff, 0, diff.count).type == "diff" else {
        throw BenchError("expected a diff, got \(String(decoding: diff.prefix(300), as: UTF8.self))")
      }
      // The first action's diff, at version 1 in every size: the frame's
      // version number has the same digits.
      if samples.count == 1 { diffBytes = diff.count + 4 }
    }
    return (percentile(samples, 0.5), diffBytes)
  }
}
