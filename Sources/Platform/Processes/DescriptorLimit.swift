import Glibc

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`).
public enum DescriptorLimit {
  /// Raises the soft limit to `wanted`, or as far as the hard limit allows;
  /// never lowers it. Returns the soft limit in force after.
  @discardableResult
  public static func raise(to wanted: Int) -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    let current = Int(clamping: limit.rlim_cur)
    guard current < wanted else { return current }
    let target = min(rlim_t(wanted), limit.rlim_max)
    guard target > limit.rlim_cur else { return current }
    limit.rlim_cur = target
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
    return Int(clamping: target)
  }
}
