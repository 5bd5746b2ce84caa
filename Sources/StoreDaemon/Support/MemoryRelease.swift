import Platform
import Synchronization

/// Gives back to the system the memory one client's large input took, once
/// it is freed, so that a burst of hostile frames does not leave the daemon
/// holding hundreds of megabytes.
///
/// glibc's malloc keeps freed memory for reuse: it raises its threshold for
/// mapping large blocks each time one is freed (so the next megabyte-sized
/// frame comes from the heap and stays there), and it returns free pages to
/// the system only from the top of each heap. Fixing the threshold keeps
/// large blocks (a frame, a long string, the array of a large JSON value)
/// mapped and unmapped on their own; `malloc_trim` returns the free pages
/// left between the small blocks a large JSON value was made of.
enum MemoryRelease {
  /// The size from which malloc maps a block on its own: glibc's initial
  /// threshold, kept from growing.
  static let mappedBlockBytes: Int32 = 128 * 1024
  /// A frame from this size on is large: for a while after one, the daemon
  /// trims the heap each second the loop is idle, as the frame's values are
  /// freed once they are read or handled, which may take a while.
  static let largeFrameBytes = 64 * 1024
  static let trimWindow: Duration = .seconds(10)
  /// When the last large frame was read and when the heap was last trimmed,
  /// in nanoseconds of ``MonotonicClock`` (0: never).
  private static let lastLargeFrame = Atomic<UInt64>(0)
  private static let lastTrim = Atomic<UInt64>(0)

  /// Fixes the mapping threshold; call once, before serving.
  static func configure() {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    // M_MMAP_THRESHOLD, from <malloc.h>.
    let mmapThreshold: Int32 = -3
    guard let mallopt = LoadedFunction.named("mallopt", as: Mallopt.self) else { return }
    _ = mallopt(mmapThreshold, mappedBlockBytes)
  }

  /// Notes that a connection read a frame of `bytes`.
  static func noteFrame(bytes: Int) {
    if bytes >= largeFrameBytes { lastLargeFrame.store(MonotonicClock.now(), ordering: .relaxed) }
  }

  /// Returns free memory to the system, at most once a second, while a large
  /// frame came in the last ``trimWindow``; the loop calls it when idle.
  static func trimIfNeeded() {
    let (now, large) = (MonotonicClock.now(), lastLargeFrame.load(ordering: .relaxed))
    // Sums, not differences: a reader may note a frame after `now` was read.
    guard large != 0, now < large + UInt64(trimWindow / .nanoseconds(1)),
      now >= lastTrim.load(ordering: .relaxed) + 1_000_000_000
    else { return }
    lastTrim.store(now, ordering: .relaxed)
    typealias MallocTrim = @convention(c) (Int) -> Int32
    _ = LoadedFunction.named("malloc_trim", as: MallocTrim.self)?(0)
  }
}
