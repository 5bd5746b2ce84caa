import CLinux
import Glibc
import Synchronization

/// A child started with posix_spawn and reaped with waitpid, for programs
/// that Foundation's `Process` cannot follow: it takes a child that closes
/// the descriptors it inherited and then execs (as systemd-socket-activate
/// does) for dead, and blocks the thread that reaps every child waiting on it.
final class SpawnedProcess: Sendable {
  let pid: pid_t
  private let exitStatus = Mutex<Int32?>(nil)

  /// Starts `arguments[0]` with `environment` (the test's own when nil),
  /// standard input from /dev/null, standard output and error appended to
  /// `output`, and `descriptor3` and `descriptor4`, if given, as file
  /// descriptors 3 and 4 (neither may itself be 3 or 4); with
  /// `blockedSignals` blocked, as a parent may leave them. It inherits no
  /// other descriptor.
  init(
    _ arguments: [String], environment: [String: String]? = nil, output: String, descriptor3: Int32? = nil,
    descriptor4: Int32? = nil, blockedSignals: [Int32] = []
  ) throws {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in blockedSignals { sigaddset(&mask, signal) }
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let descriptor3 { posix_spawn_file_actions_adddup2(&actions, descriptor3, 3) }
    if let descriptor4 { posix_spawn_file_actions_adddup2(&actions, descriptor4, 4) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // Nothing else of the test process's: a pipe another test reads to its
    // end, or the descriptor by which Foundation learns that another child
    // exited, must not stay open in this child for as long as it runs.
    posix_spawn_file_actions_addclosefrom_np(&actions, descriptor4 != nil ? 5 : descriptor3 != nil ? 4 : 3)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp ?? [] { free(pointer) }
    }
    var pid: pid_t = 0
    let result: Int32
    if var envp {
      result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, &envp)
    } else {
      result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
    }
    guard result == 0 else {
      throw DaemonTestError("posix_spawn \(arguments[0]): \(String(cString: strerror(result)))")
    }
    self.pid = pid
  }

  deinit {
    if isRunning {
      kill(pid, SIGKILL)
      _ = wait()
    }
  }

  /// Whether the child has not exited (reaping it if it has).
  var isRunning: Bool {
    exitStatus.withLock { status in
      guard status == nil else { return false }
      var raw: Int32 = 0
      guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
      status = Self.decode(raw)
      return false
    }
  }

  /// Waits for the child to exit: its exit status, or 128 + the signal that killed it.
  func wait() -> Int32 {
    exitStatus.withLock { status in
      if let status { return status }
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
      status = Self.decode(raw)
      return status!
    }
  }

  /// Sends `signal` (unless the child was already reaped) and waits for it to exit.
  func stop(_ signal: Int32 = SIGTERM) -> Int32 {
    if isRunning { kill(pid, signal) }
    return wait()
  }

  private static func decode(_ raw: Int32) -> Int32 {
    (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
  }
}
