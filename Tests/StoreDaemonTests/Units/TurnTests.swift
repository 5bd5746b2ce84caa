import ComposableCore
import Features
import JSON
import Testing

@testable import StoreDaemon

/// A batch's life in one process (``TurnHarness``): what a client hears,
/// what the workers are asked, and what the journal refuses, step by step.
@Suite struct TurnTests {
  @Test func anAcknowledgementWaitsForItsBatchToBeCommitted() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("counter.incrementButtonTapped", id: 1, from: client)
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    #expect(try client.received().isEmpty)
    #expect(try harness.state(at: "/counter/count") == .int(2))
    harness.commit()
    let answers = try client.received()
    #expect(answers.map { $0[path: "type"] } == [.string("ack"), .string("ack")])
    #expect(answers.map { $0[path: "version"] } == [.int(1), .int(2)])
  }

  @Test func anEffectStartsOnlyOnceItsBatchIsDurableAndItsReplyIsReduced() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("dice.view.rollButtonTapped", id: 1, wait: true, from: client)
    #expect(harness.workers.started.isEmpty)
    harness.commit()
    let started = try #require(harness.workers.started.first)
    guard case .timer = started.request else {
      Issue.record("the roll asked for \(started.request), not a timer")
      return
    }
    #expect(try client.received().map { $0[path: "type"] } == [.string("ack")])
    harness.deliver(.timerFired(tick: 1), to: started.id)
    harness.commit()
    let answers = try client.received()
    #expect(answers.map { $0[path: "type"] } == [.string("settled")])
    #expect(try harness.state(at: "/dice/isRolling") == .bool(false))
  }

  @Test func anActionThatReachesNothingIsRefusedAndUsesNoVersion() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("inventory.destination.dismiss", id: 1, from: client)
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    harness.commit()
    let answers = try client.received()
    #expect(answers.map { $0[path: "type"] } == [.string("error"), .string("ack")])
    #expect(answers.last?[path: "version"] == .int(1))
  }

  @Test func aRefusedBatchIsUndoneAndItsSendersAreTold() throws {
    let harness = try TurnHarness<HarnessedSeedApps>(syncPolicy: .always)
    let client = try harness.connect()
    harness.send("counter.incrementButtonTapped", id: 1, from: client)
    harness.commit()
    #expect(try client.received().map { $0[path: "type"] } == [.string("ack")])
    harness.turn.committer.failNextSyncForTesting()
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    harness.commit()
    let refusal = try #require(try client.received().first)
    #expect(refusal[path: "type"] == .string("error"))
    #expect(refusal[path: "code"] == .string("journal"))
    #expect(try harness.state(at: "/counter/count") == .int(1))
    #expect(harness.turn.store.version == 1)
  }
}
