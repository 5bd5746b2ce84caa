import Glibc
import Testing

@testable import StoreDaemon

/// An outbox writes to its socket what may go, at once and without waiting,
/// and what the socket does not take once it has room.
@Suite struct OutboxWritingTests {
  /// A socketpair: the outbox writes to `near`, the test reads `far`.
  final class Pair: Sendable {
    let near: Int32
    let far: Int32

    init(sendBuffer: Int32? = nil) {
      var descriptors: [Int32] = [-1, -1]
      precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
      (near, far) = (descriptors[0], descriptors[1])
      if var size = sendBuffer {
        setsockopt(near, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      }
    }

    deinit {
      close(near)
      close(far)
    }

    /// What `far` can read within `milliseconds`, up to `count` bytes.
    func read(upTo count: Int = 1 << 16, waiting milliseconds: Int32 = 1000) -> [UInt8] {
      var descriptor = pollfd(fd: far, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, milliseconds) == 1 else { return [] }
      var buffer = [UInt8](repeating: 0, count: count)
      let got = buffer.withUnsafeMutableBytes { Glibc.read(far, $0.baseAddress, count) }
      return Array(buffer.prefix(max(got, 0)))
    }

    /// Exactly `count` bytes from `far`, waiting as long as they take.
    func readExactly(_ count: Int) -> [UInt8] {
      var bytes: [UInt8] = []
      while bytes.count < count {
        let chunk = read(upTo: count - bytes.count, waiting: 10_000)
        if chunk.isEmpty { break }
        bytes += chunk
      }
      return bytes
    }
  }

  @Test func framesAreWrittenAtOnceAndHeldFramesOnRelease() {
    let pair = Pair()
    let outbox = Outbox(limit: 1 << 20, writingTo: pair.near)
    #expect(outbox.offer([1, 2, 3], droppable: false))
    #expect(pair.read() == [1, 2, 3])
    outbox.hold(batch: 1)
    #expect(outbox.offer([4], droppable: true))
    #expect(outbox.offer([5], droppable: false))
    #expect(pair.read(waiting: 50).isEmpty, "held frames wait for the batch to be durable")
    outbox.release(batch: 1)
    #expect(pair.read() == [4, 5])
    outbox.hold(batch: 1)
    #expect(outbox.offer([6], droppable: false))
    #expect(outbox.discardHeld(from: 1) == 1)
    outbox.release(batch: 1)
    #expect(pair.read(waiting: 50).isEmpty)
  }

  /// Two batches in flight, one being synced and one open: each holds its
  /// own frames, released in turn; a refused sync throws away both
  /// batches' frames, and dropping diffs keeps each batch's place.
  @Test func twoBatchesHoldTheirFramesApart() {
    let pair = Pair()
    let outbox = Outbox(limit: 100, writingTo: pair.near)
    outbox.hold(batch: 1)
    #expect(outbox.offer([1], droppable: false))
    #expect(outbox.offer([2], droppable: true))
    outbox.hold(batch: 2)
    #expect(outbox.offer([3], droppable: true))
    #expect(outbox.offer([4], droppable: false))
    #expect(outbox.dropDroppable() == 2)
    #expect(pair.read(waiting: 50).isEmpty)
    outbox.release(batch: 1)
    #expect(pair.read() == [1])
    #expect(pair.read(waiting: 50).isEmpty, "the open batch's frames still wait")
    outbox.release(batch: 2)
    #expect(pair.read() == [4])

    outbox.hold(batch: 3)
    #expect(outbox.offer([5], droppable: false))
    outbox.hold(batch: 4)
    #expect(outbox.offer([6], droppable: false))
    #expect(outbox.discardHeld(from: 4) == 1)
    outbox.hold(batch: 5)
    #expect(outbox.offer([7], droppable: false))
    #expect(outbox.discardHeld(from: 3) == 2, "a refused sync takes the open batch along")
    outbox.release(batch: 3)
    #expect(outbox.offer([8], droppable: false))
    #expect(pair.read() == [8])
    #expect(outbox.isEmpty)
  }

  /// Answers written in place are gathered with the answers of the same
  /// batch that wait, in order with the frames around them; a refused batch
  /// throws away its gathered answers, and the next batch gathers apart.
  @Test func answersWrittenInPlaceAreGatheredPerBatch() {
    let pair = Pair()
    let outbox = Outbox(limit: 1 << 20, writingTo: pair.near)
    func answer(_ bytes: [UInt8]) {
      outbox.offerAnswer(count: bytes.count) { $0.write(bytes) }
    }
    answer([1, 2])
    #expect(pair.read() == [1, 2], "no batch holds: written at once")
    outbox.hold(batch: 1)
    answer([3])
    answer([4, 5])
    #expect(outbox.offer([6], droppable: false))
    answer([7])
    outbox.hold(batch: 2)
    answer([8])
    answer([9])
    #expect(outbox.discardHeld(from: 2) == 1, "batch 2's two answers were gathered in one frame")
    outbox.hold(batch: 3)
    answer([10])
    outbox.release(batch: 1)
    #expect(pair.read() == [3, 4, 5, 6, 7])
    outbox.release(batch: 3)
    #expect(pair.read() == [10])
    #expect(outbox.isEmpty)

    // More than one gathered frame holds starts another.
    outbox.hold(batch: 4)
    let large = [UInt8](repeating: 11, count: Outbox.gatheredBytes - 1)
    answer(large)
    answer([12, 13])
    #expect(outbox.discardHeld(from: 4) == 2)
  }

  /// A batch holds only the outboxes it speaks to, and releases or
  /// discards exactly those.
  @Test func anOpenBatchHoldsTheOutboxesOfferedAFrame() {
    let gate = HoldGate()
    let spoken = Pair()
    let quiet = Pair()
    let first = Outbox(limit: 100, writingTo: spoken.near, gate: gate)
    let second = Outbox(limit: 100, writingTo: quiet.near, gate: gate)
    gate.isHolding = true
    gate.batch = 1
    #expect(first.offer([1], droppable: false))
    #expect(first.offer([2], droppable: false))
    #expect(gate.held.count == 1 && gate.held.first === first)
    #expect(spoken.read(waiting: 50).isEmpty)
    gate.isHolding = false
    for outbox in gate.held { outbox.release(batch: 1) }
    gate.held.removeAll()
    #expect(spoken.read() == [1, 2])
    #expect(second.isEmpty)
    #expect(second.offer([3], droppable: false))
    #expect(quiet.read() == [3], "no batch open: written at once")
  }

  /// A client that does not read: the socket takes part of the frames, the
  /// outbox says it is blocked, and a flush once the client reads writes
  /// the rest, in order; once finished and written, it says it drained.
  @Test func whatTheSocketDoesNotTakeWaitsForRoomInOrder() {
    let pair = Pair(sendBuffer: 4096)
    let outbox = Outbox(limit: 8 << 20, writingTo: pair.near)
    var changes: [String] = []
    outbox.onChange = { change in changes.append("\(change)") }
    let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    #expect(outbox.offer(large, droppable: false))
    #expect(outbox.offer([9, 9], droppable: false))
    #expect(outbox.isBlocked)
    #expect(changes == ["blocked"])
    #expect(outbox.offer([8], droppable: false))
    outbox.finish()
    var received: [UInt8] = []
    while received.count < large.count + 3 {
      let chunk = pair.read(upTo: 1 << 16, waiting: 10_000)
      if chunk.isEmpty { break }
      received += chunk
      outbox.flush()
    }
    #expect(received == large + [9, 9, 8])
    #expect(!outbox.isBlocked)
    #expect(changes == ["blocked", "unblocked", "drained"])
  }

  /// A closed connection's outbox writes nothing more: its descriptor
  /// number may already be another socket's.
  @Test func anAbandonedOutboxWritesNothing() {
    let pair = Pair()
    let outbox = Outbox(limit: 100, writingTo: pair.near)
    outbox.hold(batch: 1)
    #expect(outbox.offer([1], droppable: false))
    outbox.abandon()
    outbox.release(batch: 1)
    #expect(!outbox.offer([2], droppable: false))
    outbox.flush()
    #expect(pair.read(waiting: 50).isEmpty)
    #expect(outbox.isEmpty)
  }

  @Test func aPeerThatIsGoneFailsTheOutbox() {
    let pair = Pair()
    let outbox = Outbox(limit: 100, writingTo: pair.near)
    var failed = false
    outbox.onChange = { change in if case .failed = change { failed = true } }
    shutdown(pair.far, Int32(SHUT_RDWR))
    #expect(outbox.offer([1], droppable: false))
    #expect(failed)
    #expect(outbox.hasFailed)
    #expect(!outbox.offer([2], droppable: false) || outbox.isEmpty, "nothing is kept for a connection that is gone")
  }
}
