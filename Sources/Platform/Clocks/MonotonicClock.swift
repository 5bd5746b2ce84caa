import Glibc

/// `CLOCK_MONOTONIC` in nanoseconds: it never jumps when the wall clock is
/// set, so timers neither fire early nor stall after a clock change.
package enum MonotonicClock {
  /// Nanoseconds since an arbitrary fixed point (the boot, on Linux).
  package typealias Instant = UInt64

  /// Inlinable: the benchmark reads it for every request and reply.
  @inlinable
  package static func now() -> Instant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// `milliseconds` in nanoseconds, saturating instead of overflowing (a timer
  /// of `Int.max` milliseconds simply never fires).
  package static func nanoseconds(milliseconds: Int) -> UInt64 {
    let (product, overflow) = UInt64(max(0, milliseconds)).multipliedReportingOverflow(by: 1_000_000)
    return overflow ? UInt64.max / 2 : product
  }

  /// `instant + duration`, saturating at `UInt64.max`.
  package static func adding(_ duration: UInt64, to instant: Instant) -> Instant {
    let (sum, overflow) = instant.addingReportingOverflow(duration)
    return overflow ? .max : sum
  }

  /// Seconds from `start` to `end`.
  package static func seconds(from start: Instant, to end: Instant) -> Double {
    Double(end &- start) / 1e9
  }
}
