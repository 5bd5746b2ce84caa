import JSON
import Testing
import Wire

/// What a seed's view derives from its state is in the state a client reads:
/// `get`, and the diffs of `watch`, carry it.
@Suite struct DerivedValuesTests {
  @Test func theLastFiveRollsAreReadAndWatchedLikeTheRest() throws {
    let daemon = try DaemonProcess(arguments: ["--dice-roll", "0"])
    try daemon.waitForWorkers()
    let client = try daemon.client()
    for _ in 0..<6 { _ = try client.sendAndWait(path: "dice.view.rollButtonTapped", timeout: eventTimeout) }
    guard case .array(let history) = try client.get(path: "/dice/rollHistory").value else {
      Issue.record("the dice keep a history")
      return
    }
    #expect(history.count == 6)
    let got = try tcactl(["get", "dice.lastFiveRolls", "--json"], socket: daemon.socketPath)
    #expect(got.status == 0, "\(got.error)")
    #expect(try JSONParser.parse(Array(got.output.utf8)) == .array(Array(history.prefix(5))))
    #expect(try client.get(path: "/dice/canUndo").value == .bool(true))

    // A diff that changes the history changes its preview in the same patch.
    let undone = try client.sendAndWait(path: "dice.view.undoLastRoll", timeout: eventTimeout)
    let changes = CanonicalJSON.text(undone.changes)
    #expect(changes.contains(#""path":"/dice/lastFiveRolls"#), "\(changes)")
  }
}
