import TestSupport
import Testing

/// `effectworker` started by a person instead of by storedaemon.
@Suite(.ownThreads) struct ManualRunTests {
  @Test func helpPrintsTheUsageOfTheKindsEachProgramServesAndExitsZero() throws {
    let directory = try TemporaryDirectory()
    let run = try ManualRun(["--help"], in: directory)
    #expect(run.outcome == .exited(0))
    #expect(run.output.hasPrefix("usage: effectworker --kind timer|storage [--state-dir DIR] [--log-level LEVEL]\n"))
    #expect(!run.output.contains("--max-response-bytes"))
    #expect(run.error.isEmpty)

    let network = try ManualRun(["--help"], program: "effectworker-network", in: directory)
    #expect(network.outcome == .exited(0))
    #expect(
      network.output.hasPrefix(
        "usage: effectworker-network --kind network [--max-response-bytes N] [--log-level LEVEL]\n"))
    #expect(network.output.contains("(default 8388608, at most 33554432)"))
    #expect(!network.output.contains("--state-dir"))
  }

  /// Each program names the other when asked for a kind it does not serve.
  @Test func aKindServedByTheOtherProgramExits64NamingIt() throws {
    let directory = try TemporaryDirectory()
    let run = try ManualRun(["--kind", "network"], in: directory)
    #expect(run.outcome == .exited(64))
    #expect(
      run.error.hasPrefix("effectworker: effectworker does not serve the network kind; effectworker-network does"))
    let network = try ManualRun(["--kind", "timer"], program: "effectworker-network", in: directory)
    #expect(network.outcome == .exited(64))
    #expect(
      network.error.hasPrefix(
        "effectworker-network: effectworker-network does not serve the timer kind; effectworker does"))
  }

  @Test(arguments: [ManualRun.Descriptor3.closed, .devNull])
  func withoutTheDaemonsSocketItExplainsAndExits64(_ descriptor3: ManualRun.Descriptor3) throws {
    let directory = try TemporaryDirectory()
    let run = try ManualRun(["--kind", "timer"], descriptor3: descriptor3, in: directory)
    #expect(run.outcome == .exited(64))
    #expect(
      run.error.contains(descriptor3 == .closed ? "file descriptor 3 is not open" : "file descriptor 3 is not a socket")
    )
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
