import Dispatch
import Synchronization

/// The store loop's mailbox: any thread posts, the loop's thread takes
/// everything posted so far, waiting up to a deadline when there is nothing.
final class Inbox<Command: Sendable>: Sendable {
  private let commands = Mutex<[Command]>([])
  private let wakeup = DispatchSemaphore(value: 0)

  func post(_ command: Command) {
    commands.withLock { $0.append(command) }
    wakeup.signal()
  }

  /// Everything posted since the last call, after waiting until `deadline` if
  /// nothing was.
  func take(waitingUntil deadline: DispatchTime) -> [Command] {
    if commands.withLock({ $0.isEmpty }) {
      _ = wakeup.wait(timeout: deadline)
    }
    return commands.withLock { commands in
      defer { commands.removeAll(keepingCapacity: true) }
      return commands
    }
  }
}
