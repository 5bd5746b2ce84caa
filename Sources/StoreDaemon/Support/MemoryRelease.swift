import Glibc
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
  /// A frame from this size on is large: once the loop is idle after one,
  /// the daemon trims the heap.
  static let largeFrameBytes = 64 * 1024
  private static let largeFramesSinceTrim = Atomic<Int>(0)

  /// Fixes the mapping threshold; call once, before serving.
  static func configure() {
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    // M_MMAP_THRESHOLD, from <malloc.h>.
    let mmapThreshold: Int32 = -3
    guard let mallopt = symbol("mallopt", as: Mallopt.self) else { return }
    _ = mallopt(mmapThreshold, mappedBlockBytes)
  }

  /// Notes that a connection read a frame of `bytes`.
  static func noteFrame(bytes: Int) {
    if bytes >= largeFrameBytes { largeFramesSinceTrim.add(1, ordering: .relaxed) }
  }

  /// Returns free memory to the system if a large frame came since the last
  /// time; the loop calls it when it is idle.
  static func trimIfNeeded() {
    guard largeFramesSinceTrim.exchange(0, ordering: .relaxed) > 0 else { return }
    typealias MallocTrim = @convention(c) (Int) -> Int32
    _ = symbol("malloc_trim", as: MallocTrim.self)?(0)
  }

  /// glibc's function `name`: Swift does not import <malloc.h>.
  private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
    guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, name) else { return nil }
    return unsafeBitCast(symbol, to: type)
  }
}
