import Foundation
import Glibc
import TestSupport

/// A worker program (`effectworker` unless told) run the way a person would run it: no daemon, and file
/// descriptor 3 either closed or open on something that is not a socket.
/// Standard output and error go to files, read back when it has exited.
struct ManualRun {
  enum Descriptor3: Sendable {
    case closed
    /// Open on `/dev/null`, a character device.
    case devNull
  }

  let outcome: ProcessOutcome
  let output: String
  let error: String

  init(
    _ arguments: [String], program: String = "effectworker", descriptor3: Descriptor3 = .closed,
    in directory: TemporaryDirectory
  ) throws {
    let executable = SpawnedWorker.built(program)
    let outputPath = directory.appending("manual-\(UInt32.random(in: 0...UInt32.max)).out")
    let errorPath = outputPath + ".err"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // Open first so that the close cannot fail, whatever this process has on 3.
    posix_spawn_file_actions_addopen(&actions, 3, "/dev/null", O_RDONLY, 0)
    if descriptor3 == .closed { posix_spawn_file_actions_addclose(&actions, 3) }

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard status == 0 else { throw WorkerTestError("posix_spawn failed: \(String(cString: strerror(status)))") }
    guard let outcome = ProcessOutcome.wait(for: pid, timeout: .seconds(20)) else {
      kill(pid, SIGKILL)
      _ = ProcessOutcome.wait(for: pid, timeout: .seconds(10))
      throw WorkerTestError("\(program) \(arguments.joined(separator: " ")) did not exit within 20 s")
    }
    self.outcome = outcome
    output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
  }
}
