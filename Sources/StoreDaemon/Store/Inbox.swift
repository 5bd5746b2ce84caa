import Glibc
import Platform
import Synchronization
import Wire

/// The store loop's mailbox: any thread posts; the loop's thread takes
/// everything posted so far. A post wakes the loop, waiting in its event
/// poll, through ``wake`` (an eventfd), signalled only when the loop sleeps:
/// a loop that is busy, or spinning before it sleeps (``LoopWaiter``), finds
/// new commands without a system call on either side.
final class Inbox<Command: Sendable>: Sendable {
  private struct Queue {
    var commands: [Command] = []
    /// Whether the loop is in (or about to enter) its wait with nothing
    /// queued, so that the next post must signal ``wake``.
    var isSleeping = false
  }

  private let queue = Mutex(Queue())
  /// Whether commands are queued, for a loop that spins: set and cleared
  /// under the lock, read without it.
  private let isQueued = Atomic(false)
  /// Readable once something was posted to a sleeping loop.
  let wake: WakeSignal

  /// An empty mailbox with its wake signal.
  ///
  /// - Throws: the eventfd's failure: the process is out of file
  ///   descriptors or the kernel out of memory, which a daemon starting
  ///   reports and exits on rather than trapping.
  init() throws {
    wake = try WakeSignal()
  }

  func post(_ command: Command) {
    let mustWake = queue.withLock { queue in
      queue.commands.append(command)
      isQueued.store(true, ordering: .releasing)
      defer { queue.isSleeping = false }
      return queue.isSleeping
    }
    if mustWake { wake.signal() }
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

  /// Says the loop is about to sleep, unless commands are queued (then it
  /// returns false and must not): a post from now on signals ``wake``.
  func prepareToSleep() -> Bool {
    queue.withLock { queue in
      queue.isSleeping = queue.commands.isEmpty
      return queue.isSleeping
    }
  }

  /// The loop is awake again.
  func awoke() {
    queue.withLock { $0.isSleeping = false }
    wake.clear()
  }
}
