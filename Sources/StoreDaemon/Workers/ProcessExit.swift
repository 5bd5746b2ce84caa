import Glibc

/// How a child process ended, from its `waitpid` status, in words.
struct ProcessExit: Equatable, Sendable, CustomStringConvertible {
  let status: Int32

  /// The exit code, when the process exited rather than being killed.
  var exitCode: Int32? {
    (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil
  }

  /// The signal that killed the process, if one did.
  var signal: Int32? {
    let signal = status & 0x7f
    return signal != 0 && signal != 0x7f ? signal : nil
  }

  var description: String {
    if let code = exitCode { return "exited with status \(code)" }
    if let signal { return "was killed by signal \(signal) (\(String(cString: strsignal(signal))))" }
    return "ended with wait status \(status)"
  }
}
