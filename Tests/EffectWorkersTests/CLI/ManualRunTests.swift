import TestSupport
import Testing

/// `effectworker` started by a person instead of by storedaemon.
@Suite struct ManualRunTests {
  @Test func helpPrintsTheUsageAndExitsZero() throws {
    let directory = try TemporaryDirectory()
    let run = try ManualRun(["--help"], in: directory)
    #expect(run.outcome == .exited(0))
    #expect(run.output.contains("usage: effectworker --kind timer|network|storage"))
    #expect(run.output.contains("--max-response-bytes"))
    #expect(run.error.isEmpty)
  }

  @Test(arguments: [ManualRun.Descriptor3.closed, .devNull])
  func withoutTheDaemonsSocketItExplainsAndExits64(_ descriptor3: ManualRun.Descriptor3) throws {
    let directory = try TemporaryDirectory()
    let run = try ManualRun(["--kind", "timer"], descriptor3: descriptor3, in: directory)
    #expect(run.outcome == .exited(64))
    #expect(run.error.contains(descriptor3 == .closed ? "file descriptor 3 is not open" : "file descriptor 3 is not a socket"))
    #expect(run.error.contains("storedaemon starts its workers"))
    #expect(run.error.contains("usage: effectworker"))
  }

  @Test func aWrongCommandLineExits64WithTheReason() throws {
    let directory = try TemporaryDirectory()
    let run = try ManualRun(["--kind", "printer"], in: directory)
    #expect(run.outcome == .exited(64))
    #expect(run.error.hasPrefix("effectworker: unknown kind 'printer'"))
  }
}
