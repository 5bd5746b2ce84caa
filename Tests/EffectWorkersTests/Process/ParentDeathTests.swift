import ComposableCore
import Foundation
import Glibc
import Platform
import Synchronization
import TestSupport
import Testing
import Wire

@testable import EffectWorkers

/// A worker given its daemon's pid (`STOREDAEMON_PID`) dies with the daemon,
/// even stopped, when it can no longer read the end of file its socket gives;
/// one whose daemon is already gone exits at once.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2))) struct ParentDeathTests {
  @Test func withoutTheVariableNothingIsArranged() throws {
    #expect(try ParentDeath.arrange(daemonPID: nil) == .notRequested)
  }

  @Test(arguments: ["", "abc", "0", "-4", "12x", "99999999999"])
  func aValueThatIsNotAProcessIDIsAUsageErrorNamingIt(_ value: String) {
    #expect {
      try ParentDeath.arrange(daemonPID: value)
    } throws: { error in
      "\(error)".contains("STOREDAEMON_PID is '\(value)', not a process id; storedaemon sets it to its own pid")
    }
  }

  /// A shell stands in for the daemon: it starts the worker as the daemon
  /// does (its own pid in `STOREDAEMON_PID`, the socket on descriptor 3,
  /// which the shell passes on) and is then killed with SIGKILL while the
  /// worker is stopped. The worker never reads the end of file; only the
  /// kernel's parent-death signal ends it.
  @Test func aStoppedWorkerDiesWithTheProcessThatStartedIt() throws {
    let directory = try TemporaryDirectory()
    let worker = SpawnedWorker.executable(for: .timer)
    let shell = try ConnectedChild.spawn(
      executable: "/bin/sh", arguments: ["-c", "STOREDAEMON_PID=$$ '\(worker)' --kind timer & wait"],
      environment: ["PATH=/usr/bin:/bin"], socketDescriptor: WorkerProtocol.socketDescriptor,
      outputPath: directory.appending("worker.log"))
    defer { shell.socket.close() }
    let pid = try readyPID(from: shell.socket)
    defer { if !Self.isGone(pid) { kill(pid, SIGKILL) } }
    #expect(Self.parent(of: pid) == shell.pid)

    #expect(kill(pid, SIGSTOP) == 0)
    #expect(kill(shell.pid, SIGKILL) == 0)
    #expect(ProcessOutcome.wait(for: shell.pid, timeout: .seconds(30)) == .signaled(SIGKILL))
    try Self.waitUntilGone(pid)
  }

  /// The kernel sends the signal when the *thread* that spawned the worker
  /// ends, not the process: why storedaemon spawns its workers only from its
  /// store loop's thread, which lives as long as it does.
  @Test func theSignalFollowsTheThreadThatSpawnedTheWorker() throws {
    let directory = try TemporaryDirectory()
    let spawned = Mutex<Result<ConnectedChild, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    try DetachedThread.start(name: "spawner") {
      let result = Result<ConnectedChild, any Error>(catching: {
        let child = try ConnectedChild.spawn(
          executable: SpawnedWorker.executable(for: .timer), arguments: ["--kind", "timer"],
          environment: ["PATH=/usr/bin:/bin", "STOREDAEMON_PID=\(getpid())"],
          socketDescriptor: WorkerProtocol.socketDescriptor, outputPath: directory.appending("worker.log"))
        // `ready` comes after the signal is armed: only then may this thread end.
        _ = try readyPID(from: child.socket)
        return child
      })
      spawned.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    let child = try #require(try spawned.withLock { $0 }?.get())
    defer { child.socket.close() }
    // The worker's socket stays open on this side: nothing but the signal ends it.
    let outcome = ProcessOutcome.wait(for: child.pid, timeout: .seconds(30))
    if outcome == nil { kill(child.pid, SIGKILL) }
    #expect(outcome == .signaled(SIGKILL))
  }

  /// The daemon may die between spawning a worker and the worker arming the
  /// signal; the worker then finds another parent, and exits rather than
  /// outlive it.
  @Test func aWorkerWhoseDaemonIsAlreadyGoneExitsAtOnce() throws {
    let directory = try TemporaryDirectory()
    let log = directory.appending("worker.log")
    // Its parent is this process, not the one it is told of: as if that one
    // had died and the worker been adopted before it armed the signal.
    let other = getppid()
    let child = try ConnectedChild.spawn(
      executable: SpawnedWorker.executable(for: .timer), arguments: ["--kind", "timer"],
      environment: ["PATH=/usr/bin:/bin", "STOREDAEMON_PID=\(other)"],
      socketDescriptor: WorkerProtocol.socketDescriptor, outputPath: log)
    defer { child.socket.close() }
    let outcome = ProcessOutcome.wait(for: child.pid, timeout: .seconds(30))
    if outcome == nil { kill(child.pid, SIGKILL) }
    #expect(outcome == .exited(0))
    let written = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(
      written.contains(
        "storedaemon (pid \(other)) ended before this worker was set to end with it (its parent is now pid \(getpid()))"
      ),
      "\(written)")
  }

  // MARK: Helpers

  /// Whether `pid` has ended: no such process, or a zombie not reaped yet.
  static func isGone(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    let state = stat[stat.index(after: close)...].dropFirst().first
    return state == "Z" || state == "X"
  }

  /// The parent of `pid`, from `/proc`.
  static func parent(of pid: pid_t) -> pid_t? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 1 ? pid_t(fields[1]) : nil
  }

  /// Polls until `pid` has ended; throws after a generous `timeout`.
  static func waitUntilGone(_ pid: pid_t, timeout: Duration = .seconds(30)) throws {
    let deadline = ContinuousClock.now + timeout
    while !isGone(pid) {
      guard ContinuousClock.now < deadline else {
        throw WorkerTestError("process \(pid) is still there \(timeout) after its parent was killed")
      }
      usleep(10_000)
    }
  }
}

/// Reads frames from `socket` until the worker's `ready`, and returns the pid
/// it names.
private func readyPID(from socket: UnixSocket, timeout: Duration = .seconds(30)) throws -> pid_t {
  var decoder = FrameDecoder(maximum: WorkerProtocol.maximumFrame)
  let deadline = ContinuousClock.now + timeout
  while true {
    if let payload = try decoder.nextFrame() {
      guard case .ready(_, let pid, _) = try WorkerEvent(payload: payload) else {
        throw WorkerTestError("the worker's first message is not 'ready'")
      }
      return pid
    }
    let remaining = deadline - ContinuousClock.now
    guard remaining > .zero else { throw WorkerTestError("the worker did not say 'ready' within \(timeout)") }
    var descriptor = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, Int32(clamping: Int(remaining / .milliseconds(1)) + 1)) > 0 else { continue }
    let bytes = try socket.read()
    if bytes.isEmpty { throw WorkerTestError("the worker closed its socket before 'ready'") }
    decoder.append(bytes)
  }
}
