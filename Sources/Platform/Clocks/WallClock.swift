import Glibc

/// Wall-clock time, as the journal records it for each action.
public enum WallClock {
  /// Milliseconds since the Unix epoch, from `CLOCK_REALTIME`.
  public static func milliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
