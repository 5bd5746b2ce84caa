import Glibc

/// A child process started with one end of a fresh socketpair as one of its
/// file descriptors: its pid and this process's end of the pair.
///
/// The daemon starts and restarts its effect workers this way (the worker
/// protocol puts the socket on descriptor 3), and tests use it to drive a real
/// `effectworker` without a daemon. The child gets an empty
/// signal mask and default signal dispositions whatever this process blocked
/// or ignored, standard input from `/dev/null`, and this process's standard
/// output and error (or a log file, see `outputPath`). Every descriptor this
/// process opens is close-on-exec, so the child inherits only 0, 1, 2 and the
/// socket.
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

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 onto 3 clears close-on-exec on the copy; the original stays
    // close-on-exec and disappears at exec.
    posix_spawn_file_actions_adddup2(&actions, childEnd, socketDescriptor)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let outputPath {
      posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard status == 0 else {
      close(parentEnd)
      throw SocketError("posix_spawn", path: executable, errno: status)
    }
    return ConnectedChild(pid: pid, socket: UnixSocket(descriptor: parentEnd))
  }
}
