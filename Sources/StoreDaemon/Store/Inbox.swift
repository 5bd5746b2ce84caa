import Glibc
import Platform
import Synchronization
import Wire

/// The store loop's mailbox: any thread posts; the loop's thread takes
/// everything posted so far, and sleeps in one `poll` on the inbox and on
/// the other descriptors it reads itself (the effect workers' sockets).
///
/// A post wakes the loop through a pipe, written only when the loop sleeps:
/// a loop that is busy, or spinning before it sleeps (``LoopWaiter``), finds
/// new commands without a system call on either side. (Swift's Glibc module
/// has no `eventfd`.)
final class Inbox<Command: Sendable>: Sendable {
  private struct Queue {
    var commands: [Command] = []
    /// Whether the loop is in (or about to enter) its `poll` with nothing
    /// queued, so that the next post must write to the pipe.
    var isSleeping = false
  }

  private let queue = Mutex(Queue())
  /// Whether commands are queued, for a loop that spins: set and cleared
  /// under the lock, read without it.
  private let isQueued = Atomic(false)
  /// The pipe's ends: the loop polls and drains `wakeup`; posts write to `signal`.
  private let wakeup: Int32
  private let signal: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    // Only fails without file descriptors or kernel memory, before the daemon serves anyone.
    precondition(pipe(&ends) == 0, "pipe: \(String(cString: strerror(errno)))")
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    (wakeup, signal) = (ends[0], ends[1])
  }

  deinit {
    close(wakeup)
    close(signal)
  }

  func post(_ command: Command) {
    let wake = queue.withLock { queue in
      queue.commands.append(command)
      isQueued.store(true, ordering: .releasing)
      defer { queue.isSleeping = false }
      return queue.isSleeping
    }
    if wake {
      var byte: UInt8 = 1
      // One byte per sleep: the pipe never fills.
      _ = write(signal, &byte, 1)
    }
  }

  /// Whether anything is queued; lock-free, for a loop that spins.
  var hasCommands: Bool {
    isQueued.load(ordering: .acquiring)
  }

  /// Everything posted since the last call.
  func take() -> [Command] {
    queue.withLock { queue in
      isQueued.store(false, ordering: .releasing)
      defer { queue.commands.removeAll(keepingCapacity: true) }
      return queue.commands
    }
  }

  /// Sleeps until something is posted, one of `descriptors` is readable (or
  /// hung up), or `deadline`, and returns the descriptors that are; returns
  /// at once, reporting none, if commands are queued.
  func sleep(until deadline: ContinuousClock.Instant, alsoReading descriptors: [Int32]) -> [Int32] {
    let isEmpty = queue.withLock { queue in
      queue.isSleeping = queue.commands.isEmpty
      return queue.isSleeping
    }
    guard isEmpty else { return [] }
    var ready = Readiness.readable([wakeup] + descriptors, milliseconds: Readiness.milliseconds(until: deadline))
    queue.withLock { $0.isSleeping = false }
    if ready.first == wakeup {
      ready.removeFirst()
      // A byte per sleep: one read empties it.
      withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
        _ = read(wakeup, buffer.baseAddress, buffer.count)
      }
    }
    return ready
  }
}
