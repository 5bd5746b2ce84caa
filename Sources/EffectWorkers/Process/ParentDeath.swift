import Glibc
import Platform
import Wire

/// Ties a worker's life to the daemon's: the kernel kills the worker with
/// SIGKILL as soon as the daemon dies.
///
/// A worker also exits when its socket reaches end of file, which the kernel
/// gives it when the daemon dies, even by `kill -9`; but a worker that is
/// stopped (SIGSTOP), or hung in a system call, or busy, never reads that end
/// of file and would outlive the daemon. `PR_SET_PDEATHSIG` covers them all.
///
/// The daemon asks for it by naming its pid in the worker's environment
/// (``WorkerProtocol/daemonPIDVariable``). Without it (a test driving a worker
/// directly) nothing is arranged: the signal follows the *thread* that
/// spawned the worker, and a test's threads come and go while its worker
/// serves. The daemon spawns every worker from its store loop's thread,
/// which lives as long as the daemon.
enum ParentDeath {
  /// What ``arrange(daemonPID:)`` did.
  enum Arrangement: Equatable, Sendable {
    /// No daemon pid in the environment: the worker ends only with its socket.
    case notRequested
    /// The kernel kills this process when the daemon, its parent, dies.
    case armed(daemon: pid_t)
    /// The daemon died before the signal was armed: this process's parent is
    /// now `parent` (init or a subreaper), and no signal will come.
    case daemonGone(daemon: pid_t, parent: pid_t)
    /// `prctl` failed (`errno`); the worker still ends with its socket.
    case failed(daemon: pid_t, errno: Int32)
  }

  /// `prctl`'s option that sets the signal sent when the parent dies
  /// (`<linux/prctl.h>`, which Swift does not import).
  private static let setParentDeathSignal: Int32 = 1

  /// Arms SIGKILL on the death of the daemon named by `daemonPID` (the value
  /// of ``WorkerProtocol/daemonPIDVariable``, `nil` when unset), then checks
  /// that the daemon is still this process's parent: it may have died between
  /// spawning the worker and this call, and then no signal would ever come.
  ///
  /// - Throws: ``UsageError`` naming the value when it is not a process id.
  static func arrange(daemonPID: String?) throws(UsageError) -> Arrangement {
    guard let daemonPID else { return .notRequested }
    guard let daemon = pid_t(daemonPID), daemon > 0 else {
      throw UsageError(
        "\(WorkerProtocol.daemonPIDVariable) is '\(daemonPID)', not a process id; storedaemon sets it to its own "
          + "pid when it starts a worker (leave it unset to run a worker without a daemon)")
    }
    guard prctl(setParentDeathSignal, UInt(SIGKILL)) == 0 else { return .failed(daemon: daemon, errno: errno) }
    let parent = getppid()
    return parent == daemon ? .armed(daemon: daemon) : .daemonGone(daemon: daemon, parent: parent)
  }

  /// `prctl(option, argument, 0, 0, 0)`. Swift cannot import `prctl` (glibc
  /// declares it variadic), so its symbol is called through a C function type
  /// with five integer parameters: on Linux's x86-64 and AArch64 calling
  /// conventions, integer arguments to a variadic function travel exactly as
  /// they do to this one. -1 with `errno` ENOSYS if the symbol is missing.
  private static func prctl(_ option: Int32, _ argument: UInt) -> Int32 {
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    guard let prctl = LoadedFunction.named("prctl", as: Prctl.self) else {
      errno = ENOSYS
      return -1
    }
    return prctl(option, argument, 0, 0, 0)
  }
}
