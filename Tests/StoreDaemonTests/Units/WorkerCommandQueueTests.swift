import Glibc
import Platform
import Testing

@testable import StoreDaemon

/// A worker's command queue: bounded, written without waiting, and what the
/// socket does not take left, whole and in order, for when it has room.
@Suite struct WorkerCommandQueueTests {
  typealias Pair = OutboxWritingTests.Pair

  @Test func whatTheSocketTakesLeavesAtOnce() throws {
    let pair = Pair()
    var queue = WorkerCommandQueue(limit: 100)
    let taken = [queue.offer([1, 2]), queue.offer([3])]
    #expect(taken == [true, true])
    let allWritten = try queue.write(to: pair.near)
    #expect(allWritten)
    #expect(queue.isEmpty)
    #expect(pair.read() == [1, 2, 3])
  }

  /// Past the limit a command is refused, though an empty queue takes one
  /// of any size.
  @Test func theBytesWaitingAreBounded() {
    var queue = WorkerCommandQueue(limit: 4)
    let first = [queue.offer([1, 1, 1, 1, 1, 1]), queue.offer([2])]
    #expect(first == [true, false], "an empty queue takes a frame of any size, and then none")
    queue.clear()
    let second = [queue.offer([3, 3]), queue.offer([4, 4]), queue.offer([5])]
    #expect(second == [true, true, false])
    #expect(queue.count == 4)
  }

  /// A socket that takes part of a command: the rest waits, and leaves
  /// before what follows, once the socket has room again.
  @Test func whatTheSocketDoesNotTakeWaitsInOrder() throws {
    let pair = Pair(sendBuffer: 4096)
    var queue = WorkerCommandQueue(limit: 8 << 20)
    let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    _ = queue.offer(large)
    let allWritten = try queue.write(to: pair.near)
    #expect(!allWritten, "a 1 MiB command does not fit a 4 KiB socket")
    let taken = queue.offer([9, 9])
    #expect(taken)
    #expect(queue.count > 2 && queue.count < large.count + 2)
    var written: [UInt8] = []
    while try !queue.write(to: pair.near) {
      written += pair.read(upTo: 1 << 20)
    }
    while written.count < large.count + 2 { written += pair.read(upTo: 1 << 20) }
    #expect(written == large + [9, 9])
  }

  @Test func aWorkerWhoseEndIsGoneFailsTheWrite() {
    let pair = Pair()
    shutdown(pair.far, Int32(SHUT_RDWR))
    var queue = WorkerCommandQueue(limit: 100)
    _ = queue.offer([1])
    do {
      _ = try queue.write(to: pair.near)
      Issue.record("a write to a socket whose peer is gone succeeded")
    } catch {
      #expect(error.operation == "send" && error.errno == EPIPE, "\(error)")
    }
  }
}
