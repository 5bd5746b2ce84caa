import Glibc

/// Signal handling that a process must not inherit.
public enum SignalMask {
  /// Unblocks every signal on the calling thread. A parent may spawn us with
  /// signals blocked (test runners and some supervisors do), which would make
  /// SIGTERM and SIGINT silently ineffective; call this first thing in `main`,
  /// before any thread starts, so every thread inherits the empty mask.
  public static func unblockAll() {
    var empty = sigset_t()
    sigemptyset(&empty)
    pthread_sigmask(SIG_SETMASK, &empty, nil)
  }
}
