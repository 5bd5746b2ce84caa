import Glibc

/// The monotonic clock in nanoseconds: cheaper than `ContinuousClock` in the
/// load loops, where it is read for every request and reply.
@inline(__always)
func nanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Seconds between two ``nanoseconds()`` readings.
func seconds(from start: UInt64, to end: UInt64) -> Double {
  Double(end &- start) / 1e9
}

/// The `fraction` quantile (0.5 for the median) of `samples`, nearest rank.
func percentile(_ samples: [Double], _ fraction: Double) -> Double {
  guard !samples.isEmpty else { return .nan }
  let sorted = samples.sorted()
  let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
