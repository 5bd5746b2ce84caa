import ComposableCore
import Foundation
import Glibc
import JSON
import Testing
import Wire

/// The real `tcactl` binary against a real daemon: outputs and exit codes as
/// docs/CLI.md documents them.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TcactlTests {
  @Test func sendPrintsTheAcceptedVersion() throws {
    let daemon = try LoopDaemon()
    let result = try tcactl(["send", "cart.addItem", "3"], socket: daemon.socketPath)
    #expect(result.status == 0)
    #expect(result.output == "accepted: version 1\n")
    let json = try tcactl(["send", "counter.incrementButtonTapped", "--json"], socket: daemon.socketPath)
    #expect(json.output == "{\"version\":2}\n")
  }

  @Test func sendWaitPrintsTheChangesOnceTheEffectsSettle() throws {
    // A search waits an hour before it asks: still running when --wait gives up.
    let daemon = try DaemonProcess(arguments: ["--search-debounce", "3600"])
    let result = try tcactl(["send", "dice.view.rollButtonTapped", "--wait", "--json"], socket: daemon.socketPath)
    #expect(result.status == 0)
    let json = try JSONParser.parse(Array(result.output.utf8))
    guard case .object(let fields) = json, case .array(let changes)? = fields["changes"] else {
      Issue.record("expected {version, settled, changes}, got \(result.output)")
      return
    }
    #expect(fields["version"] == .int(1))
    #expect(fields["settled"] == .int(3))
    let actions = changes.compactMap { change -> String? in
      if case .object(let change) = change, case .string(let action)? = change["action"] { return action }
      return nil
    }
    #expect(actions.count == 3)
    #expect(actions.prefix(2) == ["dice.view.rollButtonTapped", "dice.internal.startAnimation"])
    #expect(actions.last?.hasPrefix("dice.internal.rollCompleted ") == true)

    let late = try tcactl(
      ["send", "search.textChanged", "cats", "--wait", "--timeout", "0.3"], socket: daemon.socketPath)
    #expect(late.status == 1)
    #expect(late.error.contains("accepted as version 4, but its effects were still running"))
  }

  /// A value written as JSON on the command line follows the daemon's JSON
  /// rules: a BMI record's date is ISO 8601, and the record lands in the
  /// state as written. (Only effects send records; a daemon for debugging
  /// takes them from a client.)
  @Test func aJSONArgumentWithADateIsSentAsTheDaemonReadsIt() throws {
    let daemon = try LoopDaemon(arguments: ["--allow-internal-actions"])
    let record =
      #"{"date":"2026-11-21T09:30:00Z","height":180,"id":"3F2504E0-4F89-41D3-9A0C-0305E82C3301","weight":75}"#
    let result = try tcactl(["send", "bmi.history.loaded", "[\(record)]", "[]"], socket: daemon.socketPath)
    #expect(result.status == 0, "\(result.error)")
    // The record lands as written, and the history's view publishes its BMI and category.
    let landed = try daemon.client().get(path: "/bmi/history/records/0").value
    let row = try daemon.client().get(path: "/bmi/history/view/rows/0").value
    // As written, its date in the state's own form, with its milliseconds.
    let written = record.replacingOccurrences(of: #""2026-11-21T09:30:00Z""#, with: #""2026-11-21T09:30:00.000Z""#)
    #expect(landed == (try JSONParser.parse(Array(written.utf8))))
    #expect(row[path: "category"] == .string("Normal") && row[path: "bmiText"] == .string("23.1"))
    let numeric = try tcactl(
      ["send", "bmi.input.saved", record.replacingOccurrences(of: #""2026-11-21T09:30:00Z""#, with: "0")],
      socket: daemon.socketPath)
    #expect(numeric.status == 1)
    #expect(numeric.error.contains("date"))
  }

  @Test func aRejectedActionExitsOneWithSuggestions() throws {
    let daemon = try LoopDaemon()
    let result = try tcactl(["send", "cart.addItm", "3"], socket: daemon.socketPath)
    #expect(result.status == 1)
    #expect(result.error.contains("cart.addItem"))
  }

  @Test func noDaemonExits69SayingHowToStartIt() throws {
    let result = try tcactl(["status"], socket: "/tmp/no-such-dir-\(getpid())/storedaemon.sock")
    #expect(result.status == 69)
    #expect(result.error.contains("storedaemon --socket"))
  }

  @Test func pastMaxClientsTheDaemonRefusesWithExitOneUntilASlotIsFree() throws {
    let daemon = try LoopDaemon(arguments: ["--max-clients", "1"])
    // The probe that saw the daemon start may still hold the one slot a moment.
    var first: WireClient?
    try waitUntil("the first client gets in") {
      first = try? daemon.client()
      return first != nil
    }
    let refused = try tcactl(["status"], socket: daemon.socketPath)
    #expect(refused.status == 1)
    #expect(refused.error.contains("already serves 1 clients (--max-clients)"))
    first?.close()
    try waitUntil("the slot is free again") { try tcactl(["status"], socket: daemon.socketPath).status == 0 }
  }

  @Test func usageErrorsExitTwo() throws {
    #expect(try tcactl(["launch"], socket: "/unused").status == 2)
    #expect(try tcactl(["get", "--frobnicate"], socket: "/unused").status == 2)
    let help = try tcactl(["send", "--help"], socket: "/unused")
    #expect(help.status == 0)
    #expect(help.output.contains("usage: tcactl send PATH"))
  }

  @Test func getPrintsTheStateAsJSON() throws {
    let daemon = try LoopDaemon()
    _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath)
    let compact = try tcactl(["get", "counter", "--json"], socket: daemon.socketPath)
    #expect(compact.status == 0)
    #expect(compact.output == #"{"count":1,"errorMessage":null,"isLoading":false,"numberFact":null}"# + "\n")
    let pretty = try tcactl(["get", "counter.count"], socket: daemon.socketPath)
    #expect(pretty.output == "1\n")
    for path in ["/counter/count", "counter/count"] {
      #expect(try tcactl(["get", path], socket: daemon.socketPath).output == "1\n")
    }
    let missing = try tcactl(["get", "nowhere"], socket: daemon.socketPath)
    #expect(missing.status == 1)
    #expect(missing.error.contains("no state at '/nowhere'"))
  }

  @Test func watchJSONPrintsTheSnapshotThenOneLinePerChange() throws {
    let daemon = try LoopDaemon()
    let outputPath = daemon.directory + "/watch.out"
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    let process = Process()
    process.executableURL = DaemonProcess.productsDirectory.appendingPathComponent("tcactl")
    process.arguments = ["--socket", daemon.socketPath, "watch", "counter", "--json"]
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    try process.run()
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let snapshot = #"{"state":{"count":0,"errorMessage":null,"isLoading":false,"numberFact":null},"version":0}"#
    #expect(try waitForLines(in: outputPath, count: 1) == [snapshot])
    _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath)
    #expect(
      try waitForLines(in: outputPath, count: 2) == [
        snapshot,
        #"{"action":"counter.incrementButtonTapped","patch":[{"op":"replace","path":"/count","value":1}],"version":1}"#,
      ])
  }

  @Test func actionsListsEveryPathWithItsArguments() throws {
    let daemon = try LoopDaemon()
    let result = try tcactl(["actions"], socket: daemon.socketPath)
    #expect(result.status == 0)
    #expect(result.output.contains("cart.addItem <"))
    #expect(result.output.contains("counter.incrementButtonTapped"))
  }

  @Test func statusShowsTheDaemon() throws {
    let daemon = try LoopDaemon()
    let result = try tcactl(["status"], socket: daemon.socketPath)
    #expect(result.status == 0)
    #expect(result.output.contains("storedaemon 0.2.0"))
    #expect(result.output.contains("subscribers"))
  }
}

/// The first `count` lines of the file at `path`, waiting up to ``eventTimeout`` for them.
func waitForLines(in path: String, count: Int) throws -> [String] {
  let deadline = ContinuousClock.now + eventTimeout
  while ContinuousClock.now < deadline {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    if lines.count >= count { return Array(lines.prefix(count)) }
    usleep(20_000)
  }
  throw DaemonTestError("\(path) did not reach \(count) lines within \(eventTimeout)")
}

/// The peer-credential check on its own: file permissions are opened up by
/// hand, so only `SO_PEERCRED` stands between another user and the daemon.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PeerCredentialTests {
  @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
  func anotherUserIsRefusedWithAMessage() throws {
    let daemon = try LoopDaemon()
    chmod(daemon.directory, 0o755)
    chmod(daemon.directory + "/run", 0o755)
    chmod(daemon.socketPath, 0o777)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups",
      DaemonProcess.productsDirectory.appendingPathComponent("tcactl").path, "--socket", daemon.socketPath, "status",
    ]
    let errorPath = daemon.directory + "/refused.err"
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    process.standardError = FileHandle(forWritingAtPath: errorPath)
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    process.waitUntilExit()
    let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    #expect(process.terminationStatus == 1)
    #expect(message.contains("uid 65534 may not use this socket"))
    #expect(try daemon.client().status() != .null)
  }
}
