import CLinux
import Glibc

/// A descriptor any thread can make readable, to wake a thread waiting on
/// it in `poll` or an ``EventPoll`` (eventfd(2): one descriptor, a counter
/// the kernel keeps, never full).
public final class WakeSignal: Sendable {
  /// The descriptor to wait on for reading.
  public let descriptor: Int32

  public init() throws(SystemFailure) {
    descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    guard descriptor >= 0 else { throw SystemFailure.last("eventfd", path: "(wake signal)") }
  }

  deinit {
    close(descriptor)
  }

  /// Makes the descriptor readable until ``clear()``.
  public func signal() {
    var one: UInt64 = 1
    _ = write(descriptor, &one, 8)
  }

  /// Makes it not readable again, however many signals came.
  public func clear() {
    var count: UInt64 = 0
    _ = read(descriptor, &count, 8)
  }
}
