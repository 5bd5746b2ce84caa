import Dispatch
import Glibc
import Testing

@testable import StoreDaemon

/// An outbox given its socket writes what becomes takeable itself, without
/// blocking and without its writer thread, and leaves the rest to that thread.
@Suite struct OutboxWriteThroughTests {
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

  @Test func offeredAndReleasedFramesReachTheSocketWithoutTheWriterThread() {
    let pair = Pair()
    let outbox = Outbox(limit: 1 << 20, writingThroughTo: pair.near)
    #expect(outbox.offer([1, 2, 3], droppable: false))
    #expect(pair.read() == [1, 2, 3])
    outbox.hold()
    #expect(outbox.offer([4], droppable: true))
    #expect(outbox.offer([5], droppable: false))
    #expect(pair.read(waiting: 50).isEmpty, "held frames wait for the batch to be durable")
    outbox.release()
    #expect(pair.read() == [4, 5])
    outbox.hold()
    #expect(outbox.offer([6], droppable: false))
    #expect(outbox.discardHeld() == 1)
    outbox.release()
    #expect(pair.read(waiting: 50).isEmpty)
  }

  /// A client that does not read: the socket takes part of a frame, and the
  /// writer thread gets the remainder first, then what followed, in order.
  @Test func whatTheSocketDoesNotTakeIsLeftToTheWriterInOrder() {
    let pair = Pair(sendBuffer: 4096)
    let outbox = Outbox(limit: 8 << 20, writingThroughTo: pair.near)
    let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    #expect(outbox.offer(large, droppable: false))
    #expect(outbox.offer([9, 9], droppable: false))
    // The writer thread, as a connection runs it: blocking writes.
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      while let bytes = outbox.next(upTo: Outbox.writeBatchBytes) {
        var offset = 0
        while offset < bytes.count {
          let written = bytes.withUnsafeBytes { send(pair.near, $0.baseAddress! + offset, bytes.count - offset, 0) }
          if written <= 0 { break }
          offset += written
        }
      }
      done.signal()
    }
    #expect(pair.readExactly(large.count + 2) == large + [9, 9])
    outbox.finish()
    done.wait()
  }

  @Test func nothingIsWrittenThroughOnceTheWriterThreadRetired() {
    let pair = Pair()
    let outbox = Outbox(limit: 1 << 20, writingThroughTo: pair.near)
    outbox.retire()
    #expect(outbox.offer([6], droppable: false))
    #expect(pair.read(waiting: 50).isEmpty)
    #expect(outbox.next() == [6])
  }

  /// While the writer thread holds bytes it has not written yet, later frames
  /// queue behind them instead of overtaking them.
  @Test func framesWaitBehindWhatTheWriterThreadHolds() {
    let pair = Pair(sendBuffer: 4096)
    let outbox = Outbox(limit: 8 << 20, writingThroughTo: pair.near)
    let large = [UInt8](repeating: 1, count: 256 << 10)
    #expect(outbox.offer(large, droppable: false))
    let throughFirst = pair.read(upTo: large.count, waiting: 100)
    #expect(!throughFirst.isEmpty && throughFirst.count < large.count)

    let taken = DispatchSemaphore(value: 0)
    let write = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      // Takes the remainder and, like a writer in a slow write, holds it.
      guard let remainder = outbox.next(upTo: Outbox.writeBatchBytes) else {
        Issue.record("the outbox ended before the writer took the remainder")
        taken.signal()
        return
      }
      taken.signal()
      write.wait()
      var bytes = remainder
      while let more = outbox.next(upTo: 1 << 20) {
        bytes += more
        if bytes.count >= remainder.count + 1 { break }
      }
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeBytes { send(pair.near, $0.baseAddress! + offset, bytes.count - offset, 0) }
        if written <= 0 { return }
        offset += written
      }
    }
    #expect(taken.wait(timeout: .now() + 10) == .success)
    #expect(outbox.offer([8], droppable: false))
    // The socket has room again, but [8] must not overtake the remainder.
    #expect(pair.read(waiting: 50).isEmpty)
    write.signal()
    let rest = pair.readExactly(large.count - throughFirst.count + 1)
    #expect(rest == Array(large[throughFirst.count...]) + [8])
  }
}
