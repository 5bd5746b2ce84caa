import ComposableCore
import JSON
import Testing

@testable import StoreDaemon

/// What a batch does with the effects its actions start and cancel, once it
/// is durable or refused.
@Suite struct BatchTests {
  /// The starts and cancels a batch hands over, in order.
  private final class Executor: EffectExecutor {
    var calls: [String] = []
    func start(_ request: EffectRequest, id: EffectID) { calls.append("start \(id)") }
    func cancel(_ id: EffectID) { calls.append("cancel \(id)") }
  }

  private static func batch(_ number: UInt64, gate: HoldGate) -> Batch {
    Batch(
      before: Batch.Before(version: 0, waits: SettledWaits(), firstRequestID: 1), number: number,
      gate: gate)
  }

  /// An effect started in the batch being synced and cancelled by the open
  /// batch starts once the first is durable and is cancelled once the second
  /// is: never cancelled before it started, never left running.
  @Test func aCancelOfAStartHeldInTheBatchBeforeWaitsForItsOwnBatch() {
    let gate = HoldGate()
    let syncing = Self.batch(1, gate: gate)
    syncing.hold(.timer(.after(.seconds(1))), id: 7)
    syncing.close(version: 1)
    let open = Self.batch(2, gate: gate)
    #expect(syncing.holdsStart(7) && !open.holdsStart(7))
    open.holdCancel(7)
    let executor = Executor()
    syncing.startEffects(on: executor)
    #expect(executor.calls == ["start 7"])
    open.startEffects(on: executor)
    #expect(executor.calls == ["start 7", "cancel 7"])
  }

  /// A refused batch makes none of its starts or cancels.
  @Test func aRefusedBatchStartsAndCancelsNothing() {
    let gate = HoldGate()
    let batch = Self.batch(1, gate: gate)
    batch.hold(.timer(.after(.seconds(1))), id: 3)
    batch.holdCancel(2)
    batch.discardOutboxes(from: 1)
    let executor = Executor()
    batch.startEffects(on: executor)
    #expect(executor.calls.isEmpty)
  }
}
