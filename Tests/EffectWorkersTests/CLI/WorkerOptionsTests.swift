import ComposableCore
import Testing

@testable import EffectWorkers

@Suite struct WorkerOptionsTests {
  @Test func eachKindWithItsOptions() throws {
    #expect(try WorkerOptions.parse(["--kind", "timer"]) == .run(WorkerOptions(kind: .timer)))
    #expect(
      try WorkerOptions.parse(["--kind=network", "--max-response-bytes", "1024"])
        == .run(WorkerOptions(kind: .network, maximumResponseBytes: 1024)))
    #expect(
      try WorkerOptions.parse(["--state-dir", "/var/lib/x", "--kind", "storage"])
        == .run(WorkerOptions(kind: .storage, stateDirectory: "/var/lib/x")))
    #expect(
      try WorkerOptions.parse(["--kind", "timer", "--log-level", "debug"])
        == .run(WorkerOptions(kind: .timer, logLevel: .debug)))
  }

  @Test func theResponseLimitDefaultsTo8MiB() throws {
    guard case .run(let options) = try WorkerOptions.parse(["--kind", "network"]) else {
      Issue.record("not a run")
      return
    }
    #expect(options.maximumResponseBytes == 8 * 1024 * 1024)
  }

  /// The daemon may pass the same options to every kind.
  @Test func optionsOfOtherKindsAreAccepted() throws {
    #expect(
      try WorkerOptions.parse(["--kind", "timer", "--state-dir", "/s", "--max-response-bytes", "10"])
        == .run(WorkerOptions(kind: .timer, stateDirectory: "/s", maximumResponseBytes: 10)))
  }

  @Test func helpIsAnsweredBeforeTheRestIsChecked() throws {
    #expect(try WorkerOptions.parse(["--help"]) == .help)
    #expect(try WorkerOptions.parse(["-h", "--kind", "bogus"]) == .help)
    #expect(try WorkerOptions.parse(["--kind", "storage", "--help"]) == .help)
  }

  @Test(arguments: [
    ([], "--kind is required"),
    (["--kind"], "--kind needs a value"),
    (["--kind", "printer"], "unknown kind 'printer'; expected one of: timer, network, storage"),
    (["--kind", "storage"], "--kind storage needs --state-dir DIR"),
    (["--kind", "storage", "--state-dir="], "--state-dir needs a directory"),
    (["--kind", "network", "--max-response-bytes", "0"], "from 1 to 33554432, got '0'"),
    (["--kind", "network", "--max-response-bytes", "lots"], "got 'lots'"),
    (["--kind", "network", "--max-response-bytes", "40000000"], "got '40000000'"),
    (["--kind", "timer", "--verbose"], "unknown argument '--verbose'"),
    (["--kind", "timer", "--log-level", "loud"], "--log-level takes error, warning, info or debug, got 'loud'"),
  ])
  func mistakesAreNamed(_ arguments: [String], _ expected: String) {
    #expect {
      try WorkerOptions.parse(arguments)
    } throws: { error in
      "\(error)".contains(expected)
    }
  }
}
