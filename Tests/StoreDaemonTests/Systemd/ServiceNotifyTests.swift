import ComposableCore
import Dispatch
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing
import Wire

/// What storedaemon tells systemd (sd_notify(3)), read from a fake
/// notification socket: `READY=1` once it serves, `STATUS=` lines, watchdog
/// pings from the store loop, and `STOPPING=1` on SIGTERM.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2)))
struct ServiceNotifyTests {
  @Test(arguments: [false, true])
  func readyOnceServingThenStatusThenStoppingOnSigterm(abstract: Bool) throws {
    let directory = try TemporaryDirectory()
    let notify =
      abstract
      ? try FakeNotifySocket(abstract: "sd-test-\(getpid())")
      : try FakeNotifySocket(path: directory.appending("notify"))
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
    try waitUntil("the status shows version 1") {
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

  /// The store loop sends its own status and watchdog pings: a notification
  /// socket nobody reads fills after a few datagrams, and the daemon drops
  /// what finds no room, says so once, and serves on, where a send that
  /// waited for room would stall it for good.
  @Test func aNotificationSocketNobodyReadsNeverStallsTheDaemon() throws {
    let directory = try TemporaryDirectory()
    let notify = try FakeNotifySocket(path: directory.appending("notify"))
    // A ping every 5 ms: the socket fills within moments of READY=1.
    let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "10000"])
    _ = try notify.waitFor("READY=1")
    try waitUntil("the daemon finds the notification socket full") {
      daemon.standardError.contains("the notification socket (NOTIFY_SOCKET) is full")
    }
    let client = try daemon.client()
    for _ in 0..<3 { _ = try client.send(path: "counter.incrementButtonTapped") }
    #expect(try client.get(path: "/counter/count").value == .int(3))
    #expect(daemon.standardError.components(separatedBy: "is full").count == 2, "the first drop alone is logged")
    // STOPPING=1 waits a moment for room, then is given up: the daemon
    // still stops.
    #expect(daemon.stop() == 0)
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
    // Half of WATCHDOG_USEC: a ping every 200 ms. The gaps are measured
    // between the kernel's timestamps of the pings, taken as the daemon sends
    // them: a test that reads late sees the daemon's gaps all the same.
    var pings: [Duration] = []
    while pings.count < 6 {
      _ = try notify.waitFor("WATCHDOG=1")
      pings.append(notify.received.last!.sentAt)
    }
    let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
    // Never early; late only when the machine is busy, so the typical gap
    // (the median) is what shows the interval.
    #expect(gaps.allSatisfy { $0 > .milliseconds(100) }, "gaps \(gaps)")
    #expect(gaps.sorted()[gaps.count / 2] < .milliseconds(1000), "gaps \(gaps)")

    // A reducer stuck for 2 s stops the pings; they resume after. The action
    // is acknowledged only after the stall, so a ping sent after the
    // acknowledgement came is a ping from after the stall.
    let socketPath = daemon.socketPath
    let before = wallClockNow()
    let acknowledged = DispatchSemaphore(value: 0)
    let acknowledgedAt = Mutex<Duration?>(nil)
    Thread.detachNewThread {
      if (try? WireClient(path: socketPath, clientName: "staller").send(path: "counter.decrementButtonTapped")) != nil {
        acknowledgedAt.withLock { $0 = wallClockNow() }
      }
      acknowledged.signal()
    }
    #expect(acknowledged.wait(timeout: .now() + .seconds(60)) == .success)
    let after = try #require(acknowledgedAt.withLock { $0 }, "the stalling action was not acknowledged")
    #expect(daemon.standardError.contains("stalling the store loop"))
    var all: [Duration] { notify.received.filter { $0.fields.contains("WATCHDOG=1") }.map(\.sentAt).sorted() }
    while (all.last ?? .zero) <= after {
      _ = try notify.waitFor("WATCHDOG=1")
    }
    // The stall lies between the action's sending and its acknowledgement:
    // the gap over it, from the last ping before the sending, is the longest.
    let sent = all
    let lastBefore = sent.last { $0 <= before } ?? .zero
    let around = sent.drop(while: { $0 < lastBefore })
    let longest = zip(around.dropFirst(), around).map { $0 - $1 }.max() ?? .zero
    #expect(longest >= .milliseconds(1900), "pings went on while the loop was stalled: the longest gap was \(longest)")
  }

  @Test func aWatchdogMeantForAnotherProcessIsNotPinged() throws {
    let directory = try TemporaryDirectory()
    let notify = try FakeNotifySocket(path: directory.appending("notify"))
    let daemon = try DaemonProcess(environment: [
      "NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1",
    ])
    _ = try notify.waitFor("READY=1")
    defer { daemon.stop() }
    // Three pings would be due in 300 ms; none may come. At least that long
    // after the start, two requests: the loop pings between commands, so by
    // the second answer any ping due at the first has been sent.
    usleep(600_000)
    let client = try daemon.client()
    _ = try client.get(path: "/counter/count")
    _ = try client.get(path: "/counter/count")
    while notify.next(timeout: .zero) != nil {}
    // A ping would also have come before READY=1, which the wait read past.
    #expect(!notify.received.contains { $0.fields.contains("WATCHDOG=1") }, "\(notify.received.map(\.fields))")
  }

  /// Without journald's native socket (here, one that does not exist), the
  /// journal's stream takes lines, each starting with its priority.
  @Test func underJournaldEachLineStartsWithItsPriority() throws {
    let daemon = try DaemonProcess(
      environment: ["STOREDAEMON_JOURNAL_SOCKET": "/nonexistent/journal.socket"], journalStream: true)
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

/// Under systemd, with journald's native socket, the daemon's and its
/// workers' entries go there with fields an operator selects by:
/// `journalctl -u storedaemon STORE=… VERSION=…`.
@Suite(.ownThreads, .serialized, .enabled(if: isDebugBuild, "the journal socket's path is set in debug builds"))
struct JournaldFieldsTests {
  @Test func entriesCarryTheStoreTheVersionAndTheWorker() throws {
    let directory = try TemporaryDirectory(prefix: "journald")
    let journald = try FakeJournald(path: directory.appending("journal.socket"))
    let daemon = try DaemonProcess(
      environment: ["STOREDAEMON_JOURNAL_SOCKET": journald.path], journalStream: true)
    let recovered = try journald.entry { $0["MESSAGE"]?.hasPrefix("recovered version 0") == true }
    #expect(recovered["PRIORITY"] == "6")
    #expect(recovered["SYSLOG_IDENTIFIER"] == "storedaemon")
    #expect(recovered["STORE"] == "storedaemon")
    #expect(recovered["VERSION"] == "0")
    #expect(recovered["EPOCH"] == (try daemon.client().epoch))
    let worker = try journald.entry { $0["WORKER"] == "timer" }
    #expect(worker["SYSLOG_IDENTIFIER"] == "effectworker")
    #expect(worker["MESSAGE"]?.hasPrefix("ready (pid ") == true)
    // Nothing reaches the stream meanwhile: the entries went to the journal.
    #expect(!daemon.standardError.contains("recovered version"))
  }
}

#if DEBUG
  let isDebugBuild = true
#else
  let isDebugBuild = false
#endif
