import Glibc

/// A process the benchmark starts with posix_spawn and reaps with waitpid:
/// the daemon, Redis, or the ping-pong peer. Its output goes to a file, not a
/// pipe, so a chatty child can never block on a pipe nobody reads.
final class Child {
  let pid: pid_t
  private var exitStatus: Int32?

  /// Starts `arguments[0]` with `environment` added to the benchmark's own,
  /// standard input from `input` (a descriptor) or /dev/null, and standard
  /// output and error appended to `output`.
  init(_ arguments: [String], environment: [String: String] = [:], output: String, input: Int32? = nil) throws(BenchError) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let input {
      posix_spawn_file_actions_adddup2(&actions, input, 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var merged: [String: String] = [:]
    var index = 0
    while let entry = environ[index] {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") { merged[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
      index += 1
    }
    merged.merge(environment) { $1 }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard result == 0 else { throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
    self.pid = pid
  }

  deinit {
    _ = stop(SIGKILL)
  }

  /// Whether the child is still running (reaping it if it has exited).
  var isRunning: Bool {
    guard exitStatus == nil else { return false }
    var raw: Int32 = 0
    guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
    exitStatus = raw
    return false
  }

  /// Sends `signal` unless the child has exited, and waits for it to exit.
  @discardableResult
  func stop(_ signal: Int32 = SIGTERM) -> Int32 {
    if let exitStatus { return exitStatus }
    if isRunning { kill(pid, signal) }
    if exitStatus == nil {
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
      exitStatus = raw
    }
    return exitStatus!
  }
}
