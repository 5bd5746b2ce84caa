import Dispatch
import Foundation
import Glibc
import Platform
import Synchronization
import TestSupport
import Testing

/// Reading a Unix socket: what arrives, the timeout, the end of the stream,
/// and a reader that sleeps through the peer's reads.
@Suite(.ownThreads) struct UnixSocketTests {
  /// Two connected sockets, closed at the end.
  final class Pair: Sendable {
    let near: UnixSocket
    let far: UnixSocket

    init() {
      var descriptors: [Int32] = [-1, -1]
      precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
      (near, far) = (UnixSocket(descriptor: descriptors[0]), UnixSocket(descriptor: descriptors[1]))
    }

    deinit {
      near.close()
      far.close()
    }
  }

  @Test func readReturnsWhatArrivedAndEmptyOnceThePeerCloses() throws {
    let pair = Pair()
    try pair.far.write(Array("hello".utf8))
    #expect(try pair.near.read() == Array("hello".utf8))
    pair.far.shutdown()
    #expect(try pair.near.read(timeout: .seconds(10)) == [])
  }

  @Test func readReadyTakesWhatIsThereWithoutWaiting() throws {
    let pair = Pair()
    try pair.far.write(Array("ready".utf8))
    var waiting = pollfd(fd: pair.near.descriptor, events: Int16(POLLIN), revents: 0)
    #expect(poll(&waiting, 1, 10_000) == 1)
    #expect(try pair.near.readReady(upTo: 3) == Array("rea".utf8))
    #expect(try pair.near.readReady() == Array("dy".utf8))
  }

  @Test func readFailsWithEAGAINOnceTheTimeoutPasses() {
    let pair = Pair()
    let start = ContinuousClock.now
    #expect {
      _ = try pair.near.read(timeout: .milliseconds(50))
    } throws: { error in
      (error as? SocketError)?.errno == EAGAIN
    }
    #expect(ContinuousClock.now - start >= .milliseconds(50))
    // A zero timeout looks once and does not wait.
    #expect(throws: SocketError.self) { try pair.near.read(timeout: .zero) }
  }

  @Test func aBlockedReadReturnsWhenTheSocketIsShutDown() throws {
    let pair = Pair()
    let started = DispatchSemaphore(value: 0)
    let returned = DispatchSemaphore(value: 0)
    let reader = Mutex<ThreadProbe?>(nil)
    let got = Mutex<[UInt8]?>(nil)
    Thread.detachNewThread { [pair] in
      reader.withLock { $0 = .current() }
      started.signal()
      let bytes = try? pair.near.read()
      got.withLock { $0 = bytes }
      returned.signal()
    }
    started.wait()
    // Shut down only once the read waits: before, it would return at once
    // without having blocked.
    try #require(reader.withLock { $0 }).waitUntilBlocked(in: [.poll])
    pair.near.shutdown()
    #expect(returned.wait(timeout: .now() + 60) == .success)
    #expect(got.withLock { $0 } == [])
  }

  /// A thread blocked in `read(2)` would be woken each time the peer reads
  /// what this socket wrote to it (the kernel's write-space wakeup): with 100
  /// subscribers, a context switch per diff and subscriber. The reader counts
  /// its own context switches while the test writes 500 frames, one at a
  /// time, and a peer thread reads each: the reader must sleep through them.
  @Test func aWaitingReaderSleepsWhileThePeerReadsWhatWasWritten() throws {
    let pair = Pair()
    let started = DispatchSemaphore(value: 0)
    let readByPeer = DispatchSemaphore(value: 0)
    let reader = Mutex<ThreadProbe?>(nil)
    Thread.detachNewThread { [pair] in
      reader.withLock { $0 = .current() }
      started.signal()
      _ = try? pair.near.read(timeout: .seconds(120))
    }
    Thread.detachNewThread { [pair] in
      // Blocking between frames, so the woken thread gets a core at once.
      while let bytes = try? pair.far.read(upTo: 64, timeout: .seconds(60)), !bytes.isEmpty {
        readByPeer.signal()
      }
    }
    started.wait()
    let probe = try #require(reader.withLock { $0 })
    // The reader must be in its wait before the writes begin, or it would
    // sleep through none of them.
    try probe.waitUntilBlocked(in: [.poll])
    let path = probe.path + "/status"
    let before = try Self.voluntarySwitches(path)
    for _ in 0..<500 {
      try pair.near.write(Array(repeating: 7, count: 64))
      #expect(readByPeer.wait(timeout: .now() + 60) == .success)
    }
    let switches = try Self.voluntarySwitches(path) - before
    pair.far.shutdown()
    // Woken 500 times for nothing, it switches hundreds of times; sleeping
    // through, a handful at most (a signal, the scheduler).
    #expect(switches < 50, "the waiting reader was woken \(switches) times")
  }

  private static func voluntarySwitches(_ statusPath: String) throws -> Int {
    let status = try String(contentsOfFile: statusPath, encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") })
    return try #require(Int(line.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces)))
  }
}
