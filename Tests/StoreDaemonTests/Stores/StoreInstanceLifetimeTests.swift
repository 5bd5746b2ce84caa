import ComposableCore
import FoundationEssentials
import TestSupport
import Testing
import Wire

@testable import StoreDaemon

/// A store the loop closes (``StoreLoop/closeIdleStores()``) gives its
/// memory back only if nothing of its own keeps it: its parts must not hold
/// one another in a cycle.
@Suite struct StoreInstanceLifetimeTests {
  @Test func aStoreIsFreedWithItsLastReference() throws {
    let directory = try TemporaryDirectory(prefix: "store-lifetime")
    let options = DaemonOptions(
      socketPath: directory.appending("unused.sock"), stateDirectory: directory.appending("state"))
    try FileManager.default.createDirectory(atPath: options.stateDirectory, withIntermediateDirectories: true)
    let name = try StoreName("alice")
    weak var freed: StoreInstance<HarnessedSeedApps>?
    do {
      let instance = try StoreInstance<HarnessedSeedApps>(
        name: name, number: 1, recovery: StoreInstance<HarnessedSeedApps>.recover(options: options, name: name),
        options: options, workers: ScriptedWorkers(), replica: nil, catchesUp: false, gate: HoldGate(),
        dependencies: DependencyValues(), post: { _ in })
      // What the loop gives it when it opens it.
      instance.requests.status = { [unowned instance] in .int(Int(instance.store.version)) }
      instance.turn.loopIsIdle = { true }
      instance.turn.open()
      instance.turn.makeDurable()
      #expect(instance.isIdle)
      try instance.committer.close()
      freed = instance
    }
    #expect(freed == nil, "a closed store is still referenced")
  }
}
