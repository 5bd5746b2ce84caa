import CLinux
import Glibc

/// Starts programs with `posix_spawn`, in a known state whatever this process
/// did to its own: an empty signal mask and default dispositions for the
/// signals a daemon blocks or ignores, standard input from `/dev/null` (or a
/// given descriptor), and this process's standard output and error, or a log
/// file. The child inherits only 0, 1, 2 and the one it is passed: every
/// descriptor this process opens is close-on-exec, and the child closes any
/// other (one a library opened without it) before it execs.
package enum ProcessSpawner {
  /// Spawns `executable` with `arguments` (not including the program name)
  /// and `environment` (`NAME=value` strings); returns its pid.
  ///
  /// - Parameters:
  ///   - standardInput: a descriptor to give the child as its standard input,
  ///     instead of `/dev/null`.
  ///   - outputPath: a file the child's standard output and error are
  ///     appended to (created with mode 0600 if missing) instead of sharing
  ///     this process's: nothing ever writes to a pipe that nobody drains.
  ///   - passing: a descriptor of this process and the number it has in the child.
  package static func spawn(
    executable: String, arguments: [String], environment: [String], standardInput: Int32? = nil,
    outputPath: String? = nil, passing: (descriptor: Int32, as: Int32)? = nil
  ) throws(SystemFailure) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copy; the original stays close-on-exec
    // and disappears at exec.
    if let passing { posix_spawn_file_actions_adddup2(&actions, passing.descriptor, passing.as) }
    if let standardInput {
      posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    if let outputPath {
      posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    posix_spawn_file_actions_addclosefrom_np(&actions, max(2, passing?.as ?? 2) + 1)

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
    guard status == 0 else { throw SystemFailure("posix_spawn", path: executable, code: status) }
    return pid
  }
}
