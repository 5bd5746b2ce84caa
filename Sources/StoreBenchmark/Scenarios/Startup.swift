import Glibc

/// i: start to ready, empty and with a journal of a million records.
extension Benchmark {
  func measureStartup() {
    measure("i") { () throws(BenchError) in
      var samples: [Double] = []
      for _ in 0..<options.samples {
        let daemon = try daemon("i", fsync: "always")
        samples.append(daemon.startSeconds)
      }
      report.absolute(
        "i", "start → READY=1, empty state (3 workers started), median of \(samples.count)", percentile(samples, 0.5),
        .milliseconds, target: .atMost(0.100), note: "max \(Unit.milliseconds.format(samples.max() ?? .nan))")

      let directory = newDirectory("i-journal")
      try Fixtures.writeJournal(stateDirectory: directory + "/state", records: options.journalRecords)
      let daemon = try daemon("i", fsync: "always", directory: directory)
      let count = try counter(daemon)
      guard count == options.journalRecords else {
        throw BenchError("after recovering \(options.journalRecords) records the counter is \(count)")
      }
      report.absolute(
        "i", "start → READY=1, recovering a journal of \(options.journalRecords) records", daemon.startSeconds,
        .milliseconds, target: .atMost(2))
    }
  }
}
