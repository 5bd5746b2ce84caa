import Foundation
import Glibc

/// j: `storedaemon verify` replaying a journal of 100,000 records through the
/// seed apps' reducers, the check an operator runs before a deploy.
extension Benchmark {
  func measureVerify() {
    measure("j") { () throws(BenchError) in
      let directory = newDirectory("j-journal")
      try Fixtures.writeJournal(stateDirectory: directory + "/state", records: options.verifyRecords)
      var samples: [Double] = []
      for _ in 0..<options.samples {
        let output = directory + "/verify.out"
        unlink(output)
        let started = ContinuousClock.now
        let child = try Child(
          [options.binaries + "/storedaemon", "verify", "--state-dir", directory + "/state"], output: output)
        let status = child.wait()
        let elapsed = ContinuousClock.now - started
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard status == 0, printed.contains("every version reproduced: versions 1…\(options.verifyRecords) ") else {
          throw BenchError("storedaemon verify exited with status \(status >> 8): \(printed)")
        }
        samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
      }
      report.absolute(
        "j", "storedaemon verify: replay and compare \(options.verifyRecords) records, median of \(samples.count)",
        percentile(samples, 0.5), .milliseconds, target: .atMost(5),
        note: "max \(Unit.milliseconds.format(samples.max() ?? .nan))")
    }
  }
}
