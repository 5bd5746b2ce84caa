import ComposableCore
import Foundation
import Glibc
import JSON
import Platform
import Testing
import Wire

@testable import StoreDaemon

/// The action log and past states: `log` pages, limits and follows the
/// journal; `get` with `at` rebuilds earlier states; both survive a restart
/// and keep the order of a client's answers. Through a real daemon, but
/// for what the daemon's turn in this process shows as well (``TurnHarness``):
/// pages, following, refused versions, and recovery actions refused from
/// clients.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ActionLogTests {
  @Test func theLogSaysWhenWhoAndWhatChanged() throws {
    let daemon = try DaemonProcess()
    let watcher = try daemon.client("watcher")
    try watcher.subscribe()
    _ = try watcher.nextMessage()  // the snapshot
    let alice = try daemon.client("alice")
    let before = Int64(Date().timeIntervalSince1970 * 1000)
    #expect(try alice.send(path: "counter.incrementButtonTapped") == 1)
    let (rolled, settled, _) = try alice.sendAndWait(path: "dice.view.rollButtonTapped", timeout: eventTimeout)
    let after = Int64(Date().timeIntervalSince1970 * 1000)
    #expect(rolled == 2 && settled == 4)

    let page = try daemon.client("reader").log(since: nil, last: nil)
    #expect(page.through == 4 && !page.more)
    #expect(page.records.map(\.version) == [1, 2, 3, 4])
    #expect(page.records.allSatisfy { $0.time >= before && $0.time <= after })
    #expect(
      page.records.map(\.summary).prefix(3) == [
        "counter.incrementButtonTapped", "dice.view.rollButtonTapped", "dice.internal.startAnimation",
      ])
    #expect(page.records[3].summary.hasPrefix("dice.internal.rollCompleted "))
    // The client by name; the roll's effects point back at the action they followed from.
    let origins = page.records.map(\.origin)
    guard case .object(let first) = origins[0], case .object(let roll) = origins[1] else {
      Issue.record("origins are not objects: \(origins)")
      return
    }
    #expect(first["client"] == .string("alice") && roll["client"] == .string("alice"))
    #expect(first["origin"] != roll["origin"])
    for effect in origins[2...] {
      #expect(effect == .object(["effect": .bool(true), "origin": roll["origin"]!]))
    }
    // The patches are the diffs the watcher saw.
    var diffs: [JSONValue] = []
    while diffs.count < 4 {
      if case .diff(_, _, _, let patch) = try watcher.nextMessage() { diffs.append(patch) }
    }
    #expect(page.records.map(\.patch) == diffs)
  }

  @Test func lastSinceAndPagesOfAThousand() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    for id in 1...1500 { harness.send("counter.incrementButtonTapped", id: id, from: client) }
    harness.commit()
    _ = try client.messages()
    var id = 1500
    /// The versions of the log's page, and whether more follow and through which version.
    func log(since: UInt64?, last: Int?) throws -> (versions: [UInt64], more: Bool, through: UInt64) {
      id += 1
      guard
        case .log(_, let records, let through, let more)? = try harness.ask(
          .log(id: id, since: since, last: last, follow: false), from: client)
      else {
        throw HarnessError("no log page for since \(String(describing: since)), last \(String(describing: last))")
      }
      return (records.map(\.version), more, through)
    }
    #expect(try log(since: nil, last: 5).versions == Array(1496...1500))
    #expect(try log(since: 1490, last: 3).versions == [1498, 1499, 1500])
    #expect(try log(since: 1497, last: nil).versions == [1498, 1499, 1500])
    #expect(try log(since: 1500, last: nil).versions.isEmpty)
    let first = try log(since: 0, last: nil)
    #expect(first.versions == Array(1...1000) && first.more && first.through == 1500)
    let rest = try log(since: 1000, last: nil)
    #expect(rest.versions == Array(1001...1500) && !rest.more)
  }

  @Test func followingGetsEveryNewRecordInOrder() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let sender = try harness.connect("sender")
    _ = try harness.sendAlone("counter.incrementButtonTapped", id: 1, from: sender)
    let follower = try harness.connect("follower")
    guard
      case .log(_, let records, _, let more)? = try harness.ask(
        .log(id: 1, since: nil, last: 1, follow: true), from: follower)
    else {
      Issue.record("the follower got no page")
      return
    }
    #expect(records.map(\.version) == [1] && !more)
    for id in 2...21 { _ = try harness.sendAlone("counter.incrementButtonTapped", id: id, from: sender) }
    var versions: [UInt64] = []
    for case .record(let entry) in try follower.messages() {
      versions.append(entry.version)
      #expect(
        entry.patch
          == .array([
            .object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(Int(entry.version))])
          ]))
    }
    #expect(versions == Array(2...21))
    // One stream per connection.
    harness.request(.subscribe(id: 2, path: "", since: nil), from: follower)
    let refusal = try follower.messages().first { if case .error = $0 { true } else { false } }
    guard case .error(_, let code, let message)? = refusal else {
      Issue.record("a subscription of a follower must be refused")
      return
    }
    #expect(code == .alreadySubscribed && message == "this connection follows the log; open another to subscribe")
  }

  /// Records made durable while the follower's history is still being read
  /// wait for it: the page and the records that follow are contiguous.
  ///
  /// The read of the journal waits at a gate (a fault of debug builds) while
  /// ten actions are made durable, and goes on only then.
  @Test(.enabled(if: isDebugBuild, "the gated read is a fault only debug builds of storedaemon can inject"))
  func recordsWrittenWhileTheHistoryIsReadFollowIt() throws {
    let gate = FileManager.default.temporaryDirectory.appendingPathComponent("history-gate-\(UUID())").path
    defer {
      unlink(gate)
      unlink(gate + ".waiting")
    }
    let daemon = try DaemonProcess(environment: ["STOREDAEMON_DEBUG_HISTORY_GATE": gate])
    let sender = try daemon.client("sender")
    var base: UInt64 = 0
    for _ in 1...10 { base = try sender.send(path: "counter.incrementButtonTapped") }
    let follower = try RawConnection(daemon)
    try follower.hello()
    try follower.send(#"{"type":"log","id":1,"last":3,"follow":true}"#)
    try waitUntil("the log request's read waits at the gate") { access(gate + ".waiting", F_OK) == 0 }
    var last: UInt64 = 0
    for _ in 1...10 { last = try sender.send(path: "counter.incrementButtonTapped") }
    #expect(Readiness.readable([follower.socket.descriptor], milliseconds: 0).isEmpty, "answered before the read")
    _ = FileManager.default.createFile(atPath: gate, contents: nil)
    guard case .log(1, let records, let through, let more)? = try follower.read() else {
      Issue.record("expected the log page")
      return
    }
    #expect(!more && through == base && records.map(\.version) == Array(base - 2...base))
    var versions = records.map(\.version)
    while (versions.last ?? through) < last {
      switch try follower.read() {
      case .record(let entry)?: versions.append(entry.version)
      case nil:
        Issue.record("the daemon closed the follower")
        return
      default: continue
      }
    }
    #expect(versions == Array(base - 2...last))
  }

  @Test func onlyTheDaemonSendsRecoveryActions() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    for (id, path) in ["recovered", "cart.recovered", "dice.internal.recovered"].enumerated() {
      guard case .error(_, .invalidAction, let message)? = try harness.sendAlone(path, id: id, from: client) else {
        Issue.record("\(path) must be refused")
        continue
      }
      #expect(
        message == "\(path) is sent by the daemon after a restart, not by clients; "
          + "start storedaemon with --allow-internal-actions to send it for debugging")
    }
    #expect(harness.turn.store.version == 0)
  }

  @Test func getAtRebuildsEachEarlierStateAcrossARestart() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    var states: [JSONValue] = [try client.get().value]
    for command in [
      ["counter.incrementButtonTapped"], ["cart.addItem", "3"], ["cart.addItem", "5"],
      ["bmi.input.binding.height", "180"],
    ] {
      _ = try client.send(path: command[0], arguments: Array(command.dropFirst()))
      states.append(try client.get().value)
    }
    for (version, state) in states.enumerated() {
      let (answered, value) = try client.get(path: "", at: UInt64(version))
      #expect(answered == UInt64(version))
      #expect(value == state, "version \(version)")
    }
    #expect(try client.get(path: "/cart/items", at: 2).value == states[2][path: "cart", "items"])
    client.close()
    #expect(daemon.stop() == 0)

    let restarted = try DaemonProcess(reusing: daemon)
    let again = try restarted.client()
    _ = try again.send(path: "counter.incrementButtonTapped")
    #expect(try again.get(path: "/counter/count", at: 1).value == .int(1))
    #expect(try again.get(path: "", at: 3).value == states[3])
    #expect(try again.log(since: nil, last: nil).records.map(\.version) == [1, 2, 3, 4, 5])
  }

  @Test func versionsNotHeldAreRefusedAndTheConnectionGoesOn() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    _ = try harness.sendAlone("counter.incrementButtonTapped", id: 1, from: client)
    #expect(
      try harness.ask(.get(id: 2, path: "", at: 9), from: client)
        == .error(
          id: 2, code: .versionUnavailable, message: "version 9 has not been reached: the state is at version 1"))
    #expect(
      try harness.ask(.log(id: 3, since: 2, last: nil, follow: false), from: client)
        == .error(
          id: 3, code: .versionUnavailable, message: "version 2 has not been reached: the state is at version 1"))
    #expect(
      try harness.ask(.get(id: 4, path: "/nowhere", at: 0), from: client)
        == .error(
          id: 4, code: .invalidPath,
          message:
            "no state at '/nowhere' at version 0; the state has: bmi, cart, counter, dice, inventory, parent, products, profile, search, selectedTab"
        ))
    #expect(
      try harness.ask(.get(id: 5, path: "/counter/count"), from: client)
        == .state(id: 5, version: 1, path: "/counter/count", value: .int(1)))
  }

  @Test func answersKeepTheOrderOfRequestsWhileTheJournalIsRead() throws {
    // In debug builds the reads of the journal wait at a gate, opened only
    // once the loop has had every later request, so that their answers
    // would certainly be ready first.
    let gate = FileManager.default.temporaryDirectory.appendingPathComponent("history-gate-\(UUID())").path
    defer {
      unlink(gate)
      unlink(gate + ".waiting")
    }
    let daemon = try DaemonProcess(environment: ["STOREDAEMON_DEBUG_HISTORY_GATE": gate])
    let bystander = try daemon.client()
    _ = try bystander.send(path: "counter.incrementButtonTapped")
    let raw = try RawConnection(daemon)
    try raw.hello()
    // Pipelined: the history requests are read from the journal off the
    // store's thread, yet every answer comes in request order.
    try raw.send(#"{"type":"log","id":1}"#)
    try raw.send(#"{"type":"get","id":2,"path":"/counter/count"}"#)
    try raw.send(#"{"type":"get","id":3,"path":"/counter/count","at":0}"#)
    try raw.send(#"{"type":"send","id":4,"path":"counter.incrementButtonTapped","arguments":[]}"#)
    try raw.send(#"{"type":"nonsense","id":5}"#)
    try raw.send(#"{"type":"status","id":6}"#)
    if isDebugBuild {
      try waitUntil("the log request's read waits at the gate") { access(gate + ".waiting", F_OK) == 0 }
      _ = try bystander.status()
      _ = FileManager.default.createFile(atPath: gate, contents: nil)
    }
    var ids: [Int?] = []
    while ids.count < 6, let message = try raw.read() {
      switch message {
      case .log(let id, _, _, _), .state(let id, _, _, _), .ack(let id, _), .status(let id, _): ids.append(id)
      case .error(let id, _, _): ids.append(id)
      default: continue
      }
    }
    #expect(ids == [1, 2, 3, 4, 5, 6])
  }

  @Test func tcactlLogAndGetAt() throws {
    let daemon = try LoopDaemon()
    _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: daemon.socketPath)
    _ = try tcactl(["send", "cart.addItem", "3"], socket: daemon.socketPath)

    let log = try tcactl(["log"], socket: daemon.socketPath)
    #expect(log.status == 0)
    let lines = log.output.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("v1  ") == true)
    #expect(lines.first?.hasSuffix("  tcactl send (#1)  counter.incrementButtonTapped") == true)
    #expect(lines.contains("    ~ /counter/count: 0 → 1"))
    #expect(lines.contains { $0.hasPrefix("v2  ") && $0.hasSuffix("  cart.addItem 3") })
    #expect(lines.contains { $0.hasPrefix("    + /cart/items/0: ") })

    let json = try tcactl(["log", "-n", "1", "--json"], socket: daemon.socketPath)
    let entry = try LogEntry(json: JSONParser.parse(Array(json.output.utf8)))
    #expect(entry.version == 2 && entry.summary == "cart.addItem 3")

    #expect(
      try tcactl(["log", "--since", "2"], socket: daemon.socketPath).output.contains("no actions after version 2"))
    #expect(try tcactl(["get", "counter.count", "--at", "1"], socket: daemon.socketPath).output == "1\n")
    #expect(try tcactl(["get", "counter.count", "--at", "0"], socket: daemon.socketPath).output == "0\n")
    let future = try tcactl(["get", "--at", "7"], socket: daemon.socketPath)
    #expect(future.status == 1 && future.error.contains("version 7 has not been reached"))
    #expect(try tcactl(["log", "-n", "0"], socket: daemon.socketPath).status == 2)
  }
}
