import Glibc
import Synchronization

/// A one-shot signal every blocked server thread can wait on: a socket pair
/// whose reading end becomes readable, for good, when the signal fires. A
/// thread polls it next to its connection, so stopping wakes every accept,
/// read, delay and hang at once.
public final class StopSignal: Sendable {
  /// Polled by waiting threads; readable once the signal fired.
  public let readFD: Int32
  private let writeFD: Int32
  private let fired = Mutex(false)

  public init() throws(SocketError) {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
      throw SocketError("socketpair")
    }
    readFD = fds[0]
    writeFD = fds[1]
  }

  /// Whether ``fire()`` was called.
  public var isFired: Bool { fired.withLock { $0 } }

  /// Fires the signal; returns `false` if it had already fired.
  @discardableResult
  public func fire() -> Bool {
    let first = fired.withLock { fired in
      defer { fired = true }
      return !fired
    }
    if first {
      var byte: UInt8 = 1
      _ = send(writeFD, &byte, 1, Int32(MSG_NOSIGNAL))
    }
    return first
  }

  /// Closes both ends. Only once no thread can poll ``readFD`` any more.
  public func close() {
    Glibc.close(readFD)
    Glibc.close(writeFD)
  }
}
