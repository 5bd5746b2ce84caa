import ComposableCore
import Foundation
import Glibc
import JSON
import TestSupport
import Testing
import Wire

/// The daemon's effect workers as real processes: started beside it, restarted
/// when killed, never left behind.
@Suite(.ownThreads) struct WorkerSupervisionTests {
  @Test func threeWorkersRunAsChildrenOfTheDaemon() throws {
    let daemon = try DaemonProcess()
    let pids = try daemon.waitForWorkers()
    #expect(Set(pids.keys) == ["timer", "network", "storage"])
    for pid in pids.values { #expect(parentPID(of: pid) == daemon.pid) }
    let status = try tcactl(["status"], socket: daemon.socketPath)
    #expect(status.status == 0)
    #expect(status.output.contains("KIND"))
    let rows = status.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    for (kind, pid) in pids {
      #expect(
        rows.contains { $0.count >= 3 && $0[0] == kind && $0[1] == "running" && $0[2] == "\(pid)" },
        "no row for \(kind)")
    }
  }

  /// The store loop writes a worker's commands without waiting on it: while
  /// the timer worker is stopped, thousands of keystrokes each cancel one
  /// debounce timer and start the next, far more than its socket holds; the
  /// loop serves on, and once the worker reads again every command reaches
  /// it in order, so the last keystroke's search is the one made.
  @Test func commandsWaitForAWorkerThatStoppedReadingAndReachItInOrder() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(
      arguments: api.daemonArguments + ["--search-debounce", "0.05", "--worker-timeout", "3600"])
    let timer = try #require(try daemon.waitForWorkers()["timer"])
    kill(timer, SIGSTOP)
    defer { kill(timer, SIGCONT) }
    let typing = try RawConnection(daemon)
    try typing.hello()
    // One at a time, so that each is a batch of its own whose cancel and
    // start both go to the worker: thousands of small writes, far more than
    // its socket holds.
    let keystrokes = 3000
    for id in 0..<keystrokes {
      try typing.send(#"{"type":"send","id":\#(id + 1),"path":"search.textChanged","arguments":["q\#(id)"]}"#)
      guard case .ack? = try typing.read() else {
        Issue.record("each keystroke must be acknowledged while the worker is stopped")
        return
      }
    }
    let client = try daemon.client()
    let stopped = try #require(try daemon.workers()["timer"])
    #expect(stopped["inFlight"] == .int(1), "one debounce timer in flight, the last")
    guard case .int(let unwritten)? = stopped["unwrittenBytes"], unwritten > 0 else {
      Issue.record("the stopped worker's socket never filled: \(stopped)")
      return
    }
    kill(timer, SIGCONT)
    // The loop writes the rest as the worker makes room. (Left unwritten,
    // the last timer would still end, failed by its deadline, and search.)
    try waitUntil("every command is written") { try daemon.workers()["timer"]?["unwrittenBytes"] == .int(0) }
    let last = "q\(keystrokes - 1)"
    try waitUntil("the last keystroke's results land") {
      "\(try client.get(path: "/search/results").value)".contains(FakeSeedAPI.gifID(query: last, index: 1))
    }
    try waitUntilNoEffectsInFlight(client)
    #expect(api.requests(to: .gifSearch).map { $0.query("q") } == [last])
    #expect(try daemon.workers()["timer"]?["pid"] == .int(Int(timer)), "the worker was never restarted")
  }

  @Test func aTimerWorkerKilledMidRollFailsTheRollAndComesBack() throws {
    let daemon = try DaemonProcess()
    let old = try #require(try daemon.waitForWorkers()["timer"])
    let client = try daemon.client()
    // Stopped, it cannot fire: the roll is certainly in flight when it dies.
    kill(old, SIGSTOP)
    _ = try client.send(path: "dice.view.rollButtonTapped")
    try waitUntil("the roll's timer is in flight") { try daemon.workers()["timer"]?["inFlight"] == .int(1) }
    kill(old, SIGKILL)

    try waitUntil("the roll ends") { try client.get(path: "/dice/isRolling").value == .bool(false) }
    let dice = try client.get(path: "/dice").value
    #expect(dice[path: "currentRoll"] == .null)
    guard case .string(let message)? = dice[path: "errorMessage"] else {
      Issue.record("the failed roll shows no error: \(dice)")
      return
    }
    #expect(message.contains("timer worker") && message.contains("killed by signal 9"))
    let new = try #require(try daemon.waitForWorkers()["timer"])
    #expect(new != old)
    #expect(try daemon.workers()["timer"]?["restarts"] == .int(1))
    #expect(try daemon.workers()["timer"]?["lastExit"] == .string("was killed by signal 9 (Killed)"))

    // The next roll goes through the new worker.
    _ = try client.sendAndWait(path: "dice.view.rollButtonTapped", timeout: eventTimeout)
    guard case .int(let value) = try client.get(path: "/dice/currentRoll").value else {
      Issue.record("no roll after the restart")
      return
    }
    #expect((1...6).contains(value))
  }

  @Test func aStorageWorkerKilledMidSaveFailsTheSaveAndComesBack() throws {
    let daemon = try DaemonProcess()
    let old = try #require(try daemon.waitForWorkers()["storage"])
    let client = try daemon.client()
    _ = try client.send(path: "bmi.input.binding.height", arguments: ["180"])
    _ = try client.send(path: "bmi.input.binding.weight", arguments: ["75"])
    kill(old, SIGSTOP)
    _ = try client.send(path: "bmi.input.saveButtonTapped")
    try waitUntil("the save is in flight") { try daemon.workers()["storage"]?["inFlight"] == .int(1) }
    kill(old, SIGKILL)

    try waitUntil("the save fails") {
      try client.get(path: "/bmi/input/saveStatus").value[path: "failed"] != nil
    }
    // The put was handed to the worker: it may have been stored, and saving
    // again would add a second entry if it was.
    guard case .string(let message)? = try client.get(path: "/bmi/input/saveStatus").value[path: "failed"] else {
      Issue.record("the failed save shows no message")
      return
    }
    #expect(message.contains("may or may not have been stored. Check the history before saving again."), "\(message)")
    // What a person reads says nothing of pids and signals; the action, in
    // the log, keeps them for whoever looks into it.
    #expect(!message.contains("pid"), "\(message)")
    let failed = try client.log(since: nil, last: 20).records.last { $0.summary.hasPrefix("bmi.input.saveFailed") }
    #expect(
      failed.map { CanonicalJSON.text($0.action).contains("storage worker (pid \(old)) was killed by signal 9") }
        == true, "\(String(describing: failed))")
    try daemon.waitForWorkers()

    _ = try client.send(path: "bmi.input.dismissAlert")
    _ = try client.sendAndWait(path: "bmi.input.saveButtonTapped", timeout: eventTimeout)
    #expect(try client.get(path: "/bmi/input/saveStatus").value[path: "saved"] != nil)
  }

  /// A worker whose socket lives on in a process it started: its end of file
  /// never comes, yet once its pid is gone the slot restarts it and the
  /// requests it owed fail at once with `interrupted`, not by timeout.
  @Test func aWorkerWhoseSocketSurvivesInAGrandchildIsTakenForDeadWhenItsPidEnds() throws {
    let fakes = try TemporaryDirectory()
    let built = DaemonProcess.productsDirectory.appendingPathComponent("effectworker").path
    let script = fakes.appending("effectworker")
    let grandchild = fakes.appending("grandchild.pid")
    // The grandchild holds fd 3, the worker's socket, and reads nothing.
    try ExecutableFile.write("#!/bin/sh\nsleep 100000 &\necho $! >> \(grandchild)\nexec \(built) \"$@\"\n", to: script)
    #expect(symlink(built + "-network", fakes.appending("effectworker-network")) == 0)
    // No ping may end the worker: only its death can.
    let daemon = try DaemonProcess(arguments: ["--effectworker", script, "--worker-timeout", "3600"])
    defer {
      // Before the daemon goes: the grandchildren also hold the descriptor
      // by which Foundation's `Process` learns that the daemon has exited.
      let pids = (try? String(contentsOfFile: grandchild, encoding: .utf8)) ?? ""
      for pid in pids.split(separator: "\n").compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
      withExtendedLifetime(daemon) {}
    }
    let old = try #require(try daemon.waitForWorkers()["timer"])
    let client = try daemon.client()
    kill(old, SIGSTOP)
    _ = try client.send(path: "dice.view.rollButtonTapped")
    try waitUntil("the roll's timer is in flight") { try daemon.workers()["timer"]?["inFlight"] == .int(1) }
    kill(old, SIGKILL)

    try waitUntil("the roll ends") { try client.get(path: "/dice/isRolling").value == .bool(false) }
    guard case .string(let message) = try client.get(path: "/dice/errorMessage").value else {
      Issue.record("the failed roll shows no error")
      return
    }
    #expect(message.contains("timer worker (pid \(old)) was killed by signal 9"), "\(message)")
    let new = try #require(try daemon.waitForWorkers()["timer"])
    #expect(new != old)
    #expect(try daemon.workers()["timer"]?["lastExit"] == .string("was killed by signal 9 (Killed)"))
  }

  @Test func killingTheDaemonLeavesNoWorkerBehind() throws {
    let daemon = try DaemonProcess()
    let pids = try daemon.waitForWorkers()
    // A request in flight must not keep a worker alive.
    _ = try daemon.client().send(path: "dice.view.rollButtonTapped")
    kill(daemon.pid, SIGKILL)
    daemon.process.waitUntilExit()
    try waitUntil("every worker has exited") { pids.values.allSatisfy(processIsGone) }
  }

  /// A stopped (or hung) worker never reads the end of file its socket gives
  /// when the daemon dies: the kernel's parent-death signal ends it. Workers
  /// restarted after a crash get it too, since they are spawned from the same
  /// long-lived thread as the first ones. (The anchor stands for a daemon
  /// that leads its own session, as under systemd: without it, the kernel
  /// would end the stopped workers with SIGHUP anyway.)
  @Test func killingTheDaemonEndsEvenStoppedAndRestartedWorkers() throws {
    let daemon = try DaemonProcess()
    let anchor = try ProcessGroupAnchor(joining: getpgid(daemon.pid))
    defer { withExtendedLifetime(anchor) {} }
    let first = try daemon.waitForWorkers()
    let crashed = try #require(first["timer"])
    kill(crashed, SIGKILL)
    try waitUntil("the timer worker is restarted") {
      try daemon.workers()["timer"]?["pid"].map { $0 != .int(Int(crashed)) && $0 != .null } ?? false
    }
    let pids = try daemon.waitForWorkers()
    #expect(pids["timer"] != crashed)
    defer { for pid in pids.values where !processIsGone(pid) { kill(pid, SIGKILL) } }
    for pid in pids.values { #expect(kill(pid, SIGSTOP) == 0) }
    kill(daemon.pid, SIGKILL)
    daemon.process.waitUntilExit()
    try waitUntil("every stopped worker has ended", timeout: .seconds(30)) { pids.values.allSatisfy(processIsGone) }
  }

  @Test func sigtermStopsTheWorkersAndExitsZero() throws {
    let daemon = try DaemonProcess()
    let pids = try daemon.waitForWorkers()
    #expect(daemon.stop() == 0)
    try waitUntil("every worker has exited") { pids.values.allSatisfy(processIsGone) }
  }

  @Test func aWorkerThatKeepsCrashingIsDegradedAndItsRequestsFailFast() throws {
    // `false` exits 1 at once: every start is a crash.
    let fakes = try TemporaryDirectory()
    for program in ["effectworker", "effectworker-network"] {
      #expect(symlink("/bin/false", fakes.appending(program)) == 0)
    }
    let daemon = try DaemonProcess(arguments: ["--effectworker", fakes.appending("effectworker")])
    try waitUntil("the timer kind is degraded") { try daemon.workers()["timer"]?["state"] == .string("degraded") }
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "dice.view.rollButtonTapped", timeout: eventTimeout)
    #expect(try client.get(path: "/dice/isRolling").value == .bool(false))
    // It failed at once because the kind is degraded, not after waiting for
    // a worker to start (which would have been one more crash).
    let failure = try client.get(path: "/dice/errorMessage").value
    #expect("\(failure)".contains("degraded after crashing repeatedly"), "\(failure)")
    let worker = try #require(try daemon.workers()["timer"])
    #expect(worker["lastExit"] == .string("exited with status 1"))
    #expect(daemon.standardError.contains("the kind is degraded"))
  }

  /// The daemon reads its workers' sockets on the store loop's thread: a
  /// worker that sends what is not a worker message is killed and restarted,
  /// and the loop serves on.
  @Test(arguments: [
    ("\\000\\000\\000\\005hello", "is not valid JSON"),
    ("\\000\\000\\000\\026{\"type\":\"pong\",\"id\":1}", "expected 'ready'"),
  ])
  func aWorkerThatBreaksTheProtocolIsKilledAndRestarted(_ bytes: String, _ reason: String) throws {
    let fakes = try TemporaryDirectory()
    // It then reads on, so that it ends with the daemon.
    let script = fakes.appending("effectworker")
    try ExecutableFile.write("#!/bin/sh\nprintf '\(bytes)' >&3\nexec cat <&3 >/dev/null\n", to: script)
    #expect(symlink(script, fakes.appending("effectworker-network")) == 0)
    let daemon = try DaemonProcess(arguments: ["--effectworker", script])
    try waitUntil("the timer worker was killed for it") {
      try daemon.workers()["timer"]?["lastExit"] == .string("was killed by signal 9 (Killed)")
    }
    #expect(daemon.standardError.contains("timer worker (pid "))
    #expect(daemon.standardError.contains("broke the worker protocol"))
    #expect(daemon.standardError.contains(reason), "\(daemon.standardError)")
    #expect(try daemon.client().get(path: "/counter/count").value == .int(0))
  }

  @Test func aMissingWorkerExecutableStopsTheDaemonWithStatus70() throws {
    #expect {
      try DaemonProcess(arguments: ["--effectworker", "/nonexistent/effectworker"])
    } throws: { error in
      "\(error)".contains("status 70")
        && "\(error)".contains("cannot run the effect worker '/nonexistent/effectworker'")
    }
  }

  /// The network worker is a program of its own, beside `effectworker`; an
  /// installation without it is refused at start, not at the first request.
  @Test func aMissingNetworkWorkerStopsTheDaemonWithStatus70NamingIt() throws {
    let alone = try TemporaryDirectory()
    let built = DaemonProcess.productsDirectory.appendingPathComponent("effectworker").path
    #expect(symlink(built, alone.appending("effectworker")) == 0)
    #expect {
      try DaemonProcess(arguments: ["--effectworker", alone.appending("effectworker")])
    } throws: { error in
      "\(error)".contains("status 70")
        && "\(error)".contains("cannot run the effect worker '\(alone.appending("effectworker-network"))'")
        && "\(error)".contains("the network worker is PATH-network")
    }
  }
}

@Suite(.ownThreads) struct WorkerWatchdogTests {
  @Test func aWorkerThatStopsAnsweringIsKilledAndItsRequestsFail() throws {
    // Short enough to keep the test short, long enough that a busy machine
    // does not make a healthy worker miss it.
    let daemon = try DaemonProcess(arguments: ["--worker-timeout", "3"])
    let old = try #require(try daemon.waitForWorkers()["timer"])
    let client = try daemon.client()
    kill(old, SIGSTOP)
    _ = try client.send(path: "dice.view.rollButtonTapped")
    try waitUntil("the wedged worker is replaced") {
      try daemon.workers()["timer"]?["pid"].map { $0 != .int(Int(old)) } ?? false
    }
    try waitUntil("the roll ends") { try client.get(path: "/dice/isRolling").value == .bool(false) }
    #expect(daemon.standardError.contains("timer worker has not answered a ping"))
    #expect(processIsGone(old))
    try daemon.waitForWorkers()
  }
}
