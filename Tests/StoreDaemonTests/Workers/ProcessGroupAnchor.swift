import Glibc

/// A `sleep` child of this test in another process's group, so that the
/// group keeps a member whose parent is outside it.
///
/// When a process dies and leaves its process group with no member whose
/// parent is in another group of the same session, and a member of the group
/// is stopped, the kernel sends the whole group SIGHUP and SIGCONT (POSIX
/// orphaned process groups). A test that stops a daemon's workers and kills
/// the daemon would see them end by that SIGHUP whatever the daemon does. A
/// daemon that leads its own session (as systemd starts it) never gets that
/// help, and its stopped workers would stay; the anchor keeps the group from
/// being orphaned, so the test sees what such a daemon's workers do.
final class ProcessGroupAnchor {
  let pid: pid_t

  /// Starts `sleep` in process group `group`, which must be in this
  /// process's session.
  init(joining group: pid_t) throws {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setpgroup(&attributes, group)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    let words: [String] = ["/bin/sleep", "600"]
    let argv = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var environment: [UnsafeMutablePointer<CChar>?] = [nil]
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/bin/sleep", nil, &attributes, argv, &environment)
    guard status == 0 else {
      throw DaemonTestError("cannot start /bin/sleep in process group \(group): \(String(cString: strerror(status)))")
    }
    self.pid = pid
  }

  deinit {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }
}
