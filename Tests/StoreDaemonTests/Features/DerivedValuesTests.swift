import Foundation
import JSON
import Testing
import Wire

/// What a seed's screens derive from its state is in the state a client
/// reads, in its `view`: `get`, and the diffs of `watch`, carry it.
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
    let got = try tcactl(["get", "dice.view.lastFiveRolls", "--json"], socket: daemon.socketPath)
    #expect(got.status == 0, "\(got.error)")
    #expect(try JSONParser.parse(Array(got.output.utf8)) == .array(Array(history.prefix(5))))
    #expect(try client.get(path: "/dice/view/canUndo").value == .bool(true))

    // A diff that changes the history changes its preview in the same patch.
    let undone = try client.sendAndWait(path: "dice.view.undoLastRoll", timeout: eventTimeout)
    let changes = CanonicalJSON.text(undone.changes)
    #expect(changes.contains(#""path":"/dice/view/lastFiveRolls"#), "\(changes)")
  }

  /// Every seed screen's values are readable with `tcactl get`.
  @Test func everySeedScreensValuesAreReadWithTcactlGet() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.send(path: "cart.addItem", arguments: ["3"])
    _ = try client.send(path: "cart.incrementItem", arguments: ["3"])
    _ = try client.send(path: "inventory.addButtonTapped")
    func get(_ path: String) throws -> String {
      let got = try tcactl(["get", path, "--json"], socket: daemon.socketPath)
      #expect(got.status == 0, "\(path): \(got.error)")
      return got.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try get("cart.view.itemCount") == "2")
    #expect(try get("cart.view.totalText") == #""$111.98""#)
    #expect(try get("cart.view.isPayEnabled") == "true")
    #expect(try get("cart.view.quantities.3") == "2")
    #expect(try get("cart.items.0.view.subtotalText") == #""$111.98""#)
    #expect(try get("products.rows.0.view.priceText").hasPrefix(#""$"#))
    #expect(try get("products.view.statusText") == #""Showing the catalog that came with the app.""#)
    for path in [
      "dice.view", "profile.view", "bmi.input.view", "bmi.history.view", "search.view",
      "inventory.view",
    ] {
      #expect(try get(path).hasPrefix("{"), "\(path)")
    }
  }
}
