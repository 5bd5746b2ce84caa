import Glibc

/// A child process started with one end of a fresh socketpair as one of its
/// file descriptors: its pid and this process's end of the pair.
///
/// The daemon starts and restarts its effect workers this way (the worker
/// protocol puts the socket on descriptor 3), and tests use it to drive a real
/// `effectworker` without a daemon. The child starts as
/// ``ProcessSpawner`` starts every child, with the socket as its one
/// further descriptor.
public struct ConnectedChild: Sendable {
  public let pid: pid_t
  /// This process's end of the socketpair.
  public let socket: UnixSocket

  /// Spawns `executable` with `arguments` (not including the program name)
  /// and `environment` (`NAME=value` strings), with the other end of the
  /// socketpair as its descriptor `socketDescriptor`.
  ///
  /// With `outputPath`, the child's standard output and error are appended to
  /// that file (created with mode 0600 if missing) instead of being shared with
  /// this process: tests keep each worker's log apart this way, and nothing
  /// ever writes to a pipe that nobody drains.
  public static func spawn(
    executable: String, arguments: [String], environment: [String], socketDescriptor: Int32,
    outputPath: String? = nil
  ) throws(SocketError) -> ConnectedChild {
    var pair: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
      throw SocketError("socketpair")
    }
    let (parentEnd, childEnd) = (pair[0], pair[1])
    defer { close(childEnd) }
    let pid: pid_t
    do {
      pid = try ProcessSpawner.spawn(
        executable: executable, arguments: arguments, environment: environment, outputPath: outputPath,
        passing: (childEnd, socketDescriptor))
    } catch {
      close(parentEnd)
      throw SocketError("posix_spawn", path: executable, errno: error.code)
    }
    return ConnectedChild(pid: pid, socket: UnixSocket(descriptor: parentEnd))
  }
}
