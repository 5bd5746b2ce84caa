import ComposableCore
import Testing

@testable import StoreDaemon

/// A supervisor runs a worker of the built-in kinds it is configured with
/// (every one, in the daemon); a request of one it runs none of fails at
/// once, saying so, and nothing is spawned for it.
@Suite struct WorkerKindsRunTests {
  @Test func aRequestOfABuiltInKindThatNoWorkerRunsFailsAtOnce() {
    var configuration = WorkerSupervisor.Configuration(
      executable: "/nonexistent/effectworker", stateDirectory: "/nonexistent", environment: [])
    configuration.builtInKinds = []
    let supervisor = WorkerSupervisor(configuration: configuration) { _, _, _ in }
    supervisor.start(.timer(.after(.seconds(1))), id: 1)
    #expect(
      supervisor.takeReplies().map(\.0)
        == [.failure(EffectFailure(.workerUnavailable, "no timer worker runs here; the kinds served are: none"))])
    #expect(supervisor.phases.isEmpty)
    #expect(supervisor.allSettled)
  }
}
