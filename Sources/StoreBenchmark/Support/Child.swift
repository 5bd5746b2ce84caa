import Glibc
import Platform

/// A process the benchmark starts and reaps with waitpid:
/// the daemon, Redis, or the ping-pong peer. Its output goes to a file, not a
/// pipe, so a chatty child can never block on a pipe nobody reads.
final class Child {
  let pid: pid_t
  private var exitStatus: Int32?

  /// Starts `arguments[0]` (``ProcessSpawner``) with `environment` added to
  /// the benchmark's own, standard input from `input` (a descriptor) or
  /// /dev/null, and standard output and error appended to `output`.
  init(_ arguments: [String], environment: [String: String] = [:], output: String, input: Int32? = nil)
    throws(BenchError)
  {
    var merged: [String: String] = [:]
    var index = 0
    while let entry = environ[index] {
      let text = String(cString: entry)
      if let equals = text.firstIndex(of: "=") {
        merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      index += 1
    }
    merged.merge(environment) { $1 }
    do {
      pid = try ProcessSpawner.spawn(
        executable: arguments[0], arguments: Array(arguments.dropFirst()),
        environment: merged.map { "\($0.key)=\($0.value)" },
        standardInput: input, outputPath: output)
    } catch {
      throw BenchError("cannot start \(arguments[0]): \(error)")
    }
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

  /// Waits for the child to exit on its own, and returns its wait status.
  func wait() -> Int32 {
    stop(0)
  }

  /// Sends `signal` unless the child has exited (0 sends none), and waits
  /// for it to exit.
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
