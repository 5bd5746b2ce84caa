import ComposableCore
import Foundation
import Glibc
import Testing
import TestSupport
import Wire

/// What storedaemon tells systemd (sd_notify(3)), read from a fake
/// notification socket: `READY=1` once it serves, `STATUS=` lines, watchdog
/// pings from the store loop, and `STOPPING=1` on SIGTERM.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceNotifyTests {
  @Test(arguments: [false, true])
  func readyOnceServingThenStatusThenStoppingOnSigterm(abstract: Bool) throws {
    let directory = try TemporaryDirectory()
    let notify = abstract ? try FakeNotifySocket(abstract: "sd-test-\(getpid())") : try FakeNotifySocket(path: directory.appending("notify"))
    let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.name])
    // Recovery is announced first, with more time asked for.
    let first = try #require(notify.next())
    #expect(first.contains("EXTEND_TIMEOUT_USEC=30000000"))
    #expect(first.contains("STATUS=recovering the state from the journal"))
    let ready = try notify.waitFor("READY=1")
    let status = try #require(ready.first { $0.hasPrefix("STATUS=") })
    #expect(status.hasPrefix("STATUS=version 0; "))
    #expect(status.hasSuffix("workers: timer running, network running, storage running"))
    // Ready means serving, with every worker up.
    let client = try daemon.client()
    #expect(try client.send(path: "counter.incrementButtonTapped") == 1)
    let workers = try daemon.workers()
    #expect(workers.values.allSatisfy { $0["state"] == .string("running") })
    // The status follows (a change of version alone at most once a second).
    var latest = ""
    try waitUntil("the status shows version 1", timeout: .seconds(5)) {
      latest = notify.next(timeout: .seconds(1))?.first { $0.hasPrefix("STATUS=") } ?? latest
      return latest.hasPrefix("STATUS=version 1; 1 client, 0 subscribers; workers: ")
    }

    kill(daemon.pid, SIGTERM)
    let stopping = try notify.waitFor("STOPPING=1")
    #expect(stopping.contains("STATUS=stopping"))
    daemon.process.waitUntilExit()
    #expect(daemon.process.terminationStatus == 0)
    #expect(!notify.received.contains { $0.fields.contains("WATCHDOG=1") }, "no watchdog was asked for")
  }

  @Test(.enabled(if: isDebugBuild, "the stall is a fault only debug builds of storedaemon can inject"))
  func theWatchdogIsPingedFromTheStoreLoopAndStopsWhenItStalls() throws {
    let directory = try TemporaryDirectory()
    let notify = try FakeNotifySocket(path: directory.appending("notify"))
    let daemon = try DaemonProcess(
      environment: [
        "NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "400000",
        "STOREDAEMON_DEBUG_STALL": "counter.decrementButtonTapped:2",
      ])
    _ = try notify.waitFor("READY=1")
    // Half of WATCHDOG_USEC: a ping every 200 ms.
    var pings: [ContinuousClock.Instant] = []
    while pings.count < 6 {
      _ = try notify.waitFor("WATCHDOG=1", timeout: .seconds(5))
      pings.append(.now)
    }
    let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
    #expect(gaps.allSatisfy { $0 > .milliseconds(100) && $0 < .milliseconds(1500) }, "gaps \(gaps)")

    // A reducer stuck for 2 s stops the pings; they resume after.
    let socketPath = daemon.socketPath
    Thread.detachNewThread {
      _ = try? WireClient(path: socketPath, clientName: "staller").send(path: "counter.decrementButtonTapped")
    }
    try waitUntil("the loop stalls") { daemon.standardError.contains("stalling the store loop") }
    let started = ContinuousClock.now
    _ = try notify.waitFor("WATCHDOG=1", timeout: .seconds(10))
    #expect(ContinuousClock.now - started > .milliseconds(1200), "pings went on while the loop was stalled")
    _ = try notify.waitFor("WATCHDOG=1", timeout: .seconds(2))
  }

  @Test func aWatchdogMeantForAnotherProcessIsNotPinged() throws {
    let directory = try TemporaryDirectory()
    let notify = try FakeNotifySocket(path: directory.appending("notify"))
    let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
    _ = try notify.waitFor("READY=1")
    defer { daemon.stop() }
    // Three would have come in 300 ms; none may.
    let until = ContinuousClock.now + .milliseconds(600)
    while ContinuousClock.now < until, let fields = notify.next(timeout: until - .now) {
      #expect(!fields.contains("WATCHDOG=1"))
    }
  }

  @Test func underJournaldEachLineStartsWithItsPriority() throws {
    let daemon = try DaemonProcess(journalStream: true)
    try waitUntil("the timer worker has logged") { daemon.standardError.contains("effectworker[timer]: ready") }
    let lines = daemon.standardError.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("<6>storedaemon: listening on ") })
    #expect(lines.contains { $0.hasPrefix("<6>effectworker[timer]: ready") })
    #expect(lines.allSatisfy { $0.hasPrefix("<") }, "\(lines)")

    let quiet = try DaemonProcess(arguments: ["--log-level", "warning"])
    try quiet.waitForWorkers()
    #expect(!quiet.standardError.contains("listening on"))
    #expect(!quiet.standardError.contains("ready (pid"))
  }
}

#if DEBUG
  let isDebugBuild = true
#else
  let isDebugBuild = false
#endif
