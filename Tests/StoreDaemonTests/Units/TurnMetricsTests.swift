import ComposableCore
import Features
import JSON
import Metrics
import Testing
import Wire

@testable import StoreDaemon

/// What a turn counts for the metrics (docs/OPERATIONS.md, "Metrics"), on
/// the in-memory harness: actions by case and origin, refusals by reason,
/// and each batch's size.
@Suite struct TurnMetricsTests {
  @Test func actionsAreCountedByCaseAndOrigin() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("counter.incrementButtonTapped", id: 1, from: client)
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    harness.send("cart.addItem", ["3"], id: 3, from: client)
    harness.send("cart.addItem", ["4"], id: 4, from: client)
    harness.send(
      action: .object(["counter": .string("incrementButtonTapped")]), id: 5, from: client)
    harness.commit()
    harness.send("dice.view.rollButtonTapped", id: 6, from: client)
    harness.commit()
    let started = try #require(harness.workers.started.first)
    harness.deliver(.timerFired(tick: 1), to: started.id)
    harness.commit()
    let counts = Dictionary(
      uniqueKeysWithValues: harness.turn.actionCounts.counts.map { ("\($0.key.casePath) \($0.key.sender)", $0.count) })
    #expect(counts["counter.incrementButtonTapped client"] == 3)
    #expect(counts["cart.addItem client"] == 2)
    #expect(counts["dice.view.rollButtonTapped client"] == 1)
    #expect(counts.keys.contains { $0.hasPrefix("dice.") && $0.hasSuffix(" effect") })
    // Every version reduced is one action counted.
    #expect(counts.values.reduce(0, +) == harness.turn.store.version)
    // Three batches held actions: five, one, and what the timer's reply led to.
    #expect(harness.turn.batchActions.count == 3)
    #expect(harness.turn.batchActions.sum == Double(counts.values.reduce(0, +)))
  }

  @Test func refusalsAreCountedByTheirCode() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("counter.nothingLikeThis", id: 1, from: client)
    harness.send("cart.addItem", ["three"], id: 2, from: client)
    harness.request(.get(id: 3, path: "no pointer"), from: client)
    harness.commit()
    let refusals = harness.turn.publisher.refusals
    #expect(refusals[.invalidAction] == 2)
    #expect(refusals[.invalidPath] == 1)
    #expect(refusals[.journal] == 0)
    #expect(harness.turn.actionCounts.counts.isEmpty)
    #expect(harness.turn.batchActions.count == 0)
  }
}
