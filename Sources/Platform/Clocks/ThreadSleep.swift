import Glibc

/// Blocking the calling thread for a while: for clients that pause
/// between two attempts, which have no event loop to wait in.
public enum ThreadSleep {
  /// Sleeps `duration`, the whole of it even if a signal interrupts.
  public static func sleep(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var left = timespec()
    while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
  }
}
