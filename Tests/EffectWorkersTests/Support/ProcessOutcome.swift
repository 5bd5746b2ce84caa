import Glibc

/// How a child process ended, decoded from a `waitpid` status.
enum ProcessOutcome: Equatable, CustomStringConvertible {
  case exited(Int32)
  case signaled(Int32)

  init(waitStatus status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }

  /// Waits up to `timeout` for `pid` to end and reaps it; nil if it is still running.
  static func wait(for pid: pid_t, timeout: Duration) -> ProcessOutcome? {
    let deadline = ContinuousClock.now + timeout
    while true {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { return ProcessOutcome(waitStatus: status) }
      if result < 0 && errno != EINTR { return nil }
      if ContinuousClock.now >= deadline { return nil }
      usleep(5_000)
    }
  }

  var description: String {
    switch self {
    case .exited(let code): "exited with status \(code)"
    case .signaled(let signal): "was killed by signal \(signal)"
    }
  }
}
