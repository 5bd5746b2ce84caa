import Glibc
import Testing

@testable import StoreDaemon

@Suite struct RestartPolicyTests {
  let policy = RestartPolicy(
    maximumRestarts: 3, period: .seconds(10), initialBackoff: .milliseconds(100), maximumBackoff: .milliseconds(300),
    degradedRetry: .seconds(60))

  @Test func aLoneCrashIsRestartedAtOnce() {
    var history = RestartHistory()
    let start = ContinuousClock.now
    #expect(history.crashed(at: start, policy: policy) == .restart(after: .zero))
    // Outside the period, the next crash is alone again.
    #expect(history.crashed(at: start + .seconds(11), policy: policy) == .restart(after: .zero))
    #expect(history.total == 2)
  }

  @Test func quickCrashesBackOffThenDegrade() {
    var history = RestartHistory()
    let start = ContinuousClock.now
    #expect(history.crashed(at: start, policy: policy) == .restart(after: .zero))
    #expect(history.crashed(at: start + .seconds(1), policy: policy) == .restart(after: .milliseconds(100)))
    #expect(history.crashed(at: start + .seconds(2), policy: policy) == .restart(after: .milliseconds(200)))
    #expect(history.crashed(at: start + .seconds(3), policy: policy) == .degrade(retryAfter: .seconds(60)))
    #expect(history.total == 3)
    // The retry after degrading starts a fresh count.
    #expect(history.crashed(at: start + .seconds(64), policy: policy) == .restart(after: .zero))
  }

  @Test func backoffIsCapped() {
    var history = RestartHistory()
    let wide = RestartPolicy(
      maximumRestarts: 10, period: .seconds(10), initialBackoff: .milliseconds(100), maximumBackoff: .milliseconds(300))
    let start = ContinuousClock.now
    var last: RestartPolicy.Decision?
    for second in 0..<8 { last = history.crashed(at: start + .milliseconds(second * 100), policy: wide) }
    #expect(last == .restart(after: .milliseconds(300)))
  }
}

@Suite struct ProcessExitTests {
  @Test func describesExitsAndSignals() {
    #expect(ProcessExit(status: 0).description == "exited with status 0")
    #expect(ProcessExit(status: 2 << 8).description == "exited with status 2")
    #expect(ProcessExit(status: SIGKILL).signal == SIGKILL)
    #expect(ProcessExit(status: SIGKILL).description == "was killed by signal 9 (Killed)")
  }
}

@Suite struct WorkerEnvironmentTests {
  @Test func systemdVariablesAreNotInherited() {
    let environment = WorkerEnvironment.inherited(
      from: [
        "PATH": "/usr/bin", "NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1",
        "LISTEN_FDS": "1", "LISTEN_PID": "1", "LISTEN_FDNAMES": "storedaemon.socket",
        "HTTPS_PROXY": "http://proxy:3128",
      ], daemon: 4242)
    #expect(environment == ["HTTPS_PROXY=http://proxy:3128", "PATH=/usr/bin", "STOREDAEMON_PID=4242"])
  }

  /// Workers learn the daemon's pid, to die with it; one the daemon itself
  /// inherited (from a daemon that started it) is replaced.
  @Test func theDaemonsOwnPidReplacesAnInheritedOne() {
    #expect(WorkerEnvironment.inherited(from: ["STOREDAEMON_PID": "7"], daemon: 4242) == ["STOREDAEMON_PID=4242"])
    #expect(WorkerEnvironment.inherited(from: [:]) == ["STOREDAEMON_PID=\(getpid())"])
  }

  @Test func theWorkerIsFoundBesideTheDaemon() {
    let path = WorkerEnvironment.defaultExecutable()
    #expect(path.hasSuffix("/effectworker"))
    #expect(path.hasPrefix("/"))
  }
}
