import Glibc
import Testing

@testable import StoreDaemon

/// A worker's command queue: written through at once while its writer is
/// idle, bounded, and what the socket does not take left, whole and in
/// order, for the writer thread.
@Suite struct WorkerOutboxTests {
  typealias Pair = OutboxWritingTests.Pair

  @Test func commandsAreWrittenThroughAtOnce() {
    let pair = Pair()
    let outbox = WorkerOutbox(limit: 100, writingThroughTo: pair.near)
    #expect(outbox.offer([1, 2]))
    #expect(outbox.offer([3]))
    #expect(pair.read() == [1, 2, 3])
    outbox.finish()
    #expect(outbox.next(upTo: 64) == nil, "finished and empty: the writer ends")
    #expect(!outbox.offer([4]), "nothing is taken once finished")
  }

  /// Without its socket taking anything (no write-through here), commands
  /// wait for the writer, which takes them back to back; past the limit a
  /// command is refused, though an empty queue takes one of any size.
  @Test func waitingCommandsAreBoundedAndTakenBackToBack() {
    let outbox = WorkerOutbox(limit: 4)
    #expect(outbox.offer([1, 1, 1, 1, 1, 1]), "an empty queue takes a frame of any size")
    #expect(!outbox.offer([2]))
    #expect(outbox.next(upTo: 64) == [1, 1, 1, 1, 1, 1])
    #expect(outbox.offer([3, 3]))
    #expect(outbox.offer([4, 4]))
    #expect(!outbox.offer([5]))
    #expect(outbox.next(upTo: 64) == [3, 3, 4, 4])
  }

  /// A socket that takes part of a command: the rest, then what follows,
  /// go to the writer in order.
  @Test func whatTheSocketDoesNotTakeIsLeftForTheWriterInOrder() {
    let pair = Pair(sendBuffer: 4096)
    let outbox = WorkerOutbox(limit: 8 << 20, writingThroughTo: pair.near)
    let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    #expect(outbox.offer(large))
    #expect(outbox.offer([9, 9]))
    var written: [UInt8] = []
    while case let chunk = pair.read(upTo: 1 << 20, waiting: 50), !chunk.isEmpty { written += chunk }
    #expect(!written.isEmpty && written.count < large.count)
    let rest = outbox.next(upTo: 8 << 20) ?? []
    #expect(written + rest == large + [9, 9])
  }
}
