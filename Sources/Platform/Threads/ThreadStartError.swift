import Glibc

/// A thread the system would not start (`pthread_create` failed): most often
/// `EAGAIN`, when the user already has as many processes and threads as its
/// limit allows (`RLIMIT_NPROC`, or the service's `TasksMax=`).
public struct ThreadStartError: Error, Sendable, CustomStringConvertible {
  /// What the thread was for, e.g. `history`.
  public let name: String
  /// The error `pthread_create` returned.
  public let errno: Int32

  public init(name: String, errno: Int32) {
    self.name = name
    self.errno = errno
  }

  public var description: String {
    var text = "could not start the \(name) thread: \(String(cString: strerror(errno)))"
    if errno == EAGAIN {
      text += " (the limit on this user's processes and threads is reached: RLIMIT_NPROC, or the unit's TasksMax=)"
    }
    return text
  }
}
