import ComposableCore
import JSON
import Testing
import Wire

/// Every action the daemon lists can be built from the `actions` message and
/// docs/PROTOCOL.md alone, by a client that knows nothing of Swift, and is
/// accepted; the internal ones only from a daemon run for debugging. The
/// client's frames go to the daemon's turn in this process (``TurnHarness``),
/// but for the refusal `tcactl` prints, which needs a daemon's socket.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ListedActionsTests {
  /// The features' APIs at a closed local port, so that the requests the
  /// actions start fail at once rather than reach the internet.
  static let offline = [
    "--store-api", "http://127.0.0.1:9", "--numbers-api", "http://127.0.0.1:9", "--gif-api", "http://127.0.0.1:9",
  ]

  @Test func everyListedActionIsBuiltFromItsEntryAndAccepted() throws {
    let client = ForeignClient(try HarnessTransport(TurnHarness<HarnessedSeedApps>()))
    let entries = try client.actions(all: false)
    #expect(entries.count >= 30, "the app's public actions are listed")
    #expect(entries.allSatisfy { $0["internal"] == .bool(false) && $0["sentBy"] == .null })
    try expectEachAccepted(entries, by: client)
  }

  @Test func aDaemonForDebuggingAcceptsEveryActionInternalOnesToo() throws {
    let client = ForeignClient(
      try HarnessTransport(TurnHarness<HarnessedSeedApps>(allowsInternalActions: true)))
    let entries = try client.actions(all: true)
    #expect(entries.contains { $0["internal"] == .bool(true) })
    try expectEachAccepted(entries, by: client)
  }

  /// Every internal action, by JSON or by path, is refused with a message
  /// naming it, who sends it and the option; no version is spent on it.
  @Test func internalActionsAreRefusedFromClientsAndSpendNoVersion() throws {
    let client = ForeignClient(try HarnessTransport(TurnHarness<HarnessedSeedApps>()))
    let all = try client.actions(all: true)
    let internalEntries = all.filter { $0["internal"] == .bool(true) }
    #expect(internalEntries.count >= 25)
    #expect(try client.actions(all: false) == all.filter { $0["internal"] == .bool(false) })
    let before = try client.version()
    for entry in internalEntries {
      guard case .string(let path)? = entry["path"], case .string(let sender)? = entry["sentBy"] else {
        Issue.record("an internal entry names its path and sender: \(entry)")
        continue
      }
      let action = try #require(try ForeignClient.action(from: entry), "\(path) has no JSON form")
      let expected =
        "\(path) is sent by \(sender), not by clients; "
        + "start storedaemon with --allow-internal-actions to send it for debugging"
      switch try client.send(action) {
      case .error(_, .invalidAction, let message)?: #expect(message == expected)
      case let other: Issue.record("\(path) was not refused: \(String(describing: other))")
      }
    }
    #expect(try client.version() == before)
  }

  /// The issue's case: a client emptied the shown history while storage
  /// still held the records.
  @Test func aClientCannotEmptyTheHistoryStorageHolds() throws {
    let daemon = try LoopDaemon(arguments: Self.offline)
    let client = try daemon.client()
    let record =
      #"{"date":"2026-11-21T09:30:00Z","height":180,"id":"3F2504E0-4F89-41D3-9A0C-0305E82C3301","weight":75}"#
    #expect {
      try client.send(path: "bmi.history.loaded", arguments: ["[\(record)]", "[]"])
    } throws: { error in
      guard case ClientError.rejected(.invalidAction, let message) = error else { return false }
      return message.hasPrefix("bmi.history.loaded is sent by the storage effect, not by clients")
    }
    let refused = try tcactl(["send", "bmi.history.loaded", "[]", "[]"], socket: daemon.socketPath)
    #expect(refused.status == 1)
    #expect(refused.error.contains("start storedaemon with --allow-internal-actions"))
    #expect(try client.get(path: "/bmi/history/records").value == .array([]))
    #expect(try client.get().version == 0)
  }

  /// Sends each entry's action, built as another language would, in the
  /// listing's order, and expects each to be understood: acknowledged, or
  /// not applied because the state it reaches is not there (a form closed by
  /// the save listed before its cancel, an item that was never added, a
  /// destination dismissed that is not presented), which the daemon says
  /// after reading the action. Most are acknowledged.
  private func expectEachAccepted(_ entries: [JSONObject], by client: ForeignClient) throws {
    var accepted = 0
    var notApplied = 0
    for entry in entries {
      let path = if case .string(let path)? = entry["path"] { path } else { "\(entry)" }
      guard let action = try ForeignClient.action(from: entry) else {
        Issue.record("\(path) has no JSON form")
        continue
      }
      switch try client.send(action) {
      case .ack?: accepted += 1
      case .error(_, .invalidAction, let message)? where message.contains(" was not applied: "):
        notApplied += 1
      case let other:
        Issue.record("\(path) as \(CanonicalJSON.text(action)) was not accepted: \(String(describing: other))")
      }
    }
    #expect(accepted + notApplied == entries.count)
    #expect(accepted * 2 > entries.count, "\(accepted) of \(entries.count) acknowledged")
  }
}
