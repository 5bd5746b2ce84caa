import ActionLanguage
import ComposableCore
import JSON
import Testing
import Wire

@testable import SeedApps
@testable import StoreDaemon

/// `tcactl actions` lists what a client may send; `--all` adds the internal
/// actions, marked with who sends them.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TcactlActionsTests {
  @Test func listsOnlyWhatAClientMaySendUnlessAskedForAll() throws {
    let daemon = try LoopDaemon()
    let listed = try tcactl(["actions"], socket: daemon.socketPath)
    #expect(listed.status == 0)
    let lines = listed.output.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("cart.addItem <Int>") })
    #expect(!listed.output.contains("internal"))
    #expect(!lines.contains { $0.hasPrefix("cart.orderPlaced") || $0.hasPrefix("recovered") })

    let all = try tcactl(["actions", "--all"], socket: daemon.socketPath)
    #expect(all.status == 0)
    let allLines = all.output.split(separator: "\n")
    #expect(allLines.count > lines.count)
    #expect(
      allLines.contains {
        $0.hasPrefix("cart.orderPlaced <orderID: Int?>") && $0.hasSuffix("[internal: sent by the HTTP effect]")
      })
    #expect(
      allLines.contains {
        $0.hasPrefix("recovered") && $0.hasSuffix("[internal: sent by the daemon after a restart]")
      })
    #expect(allLines.filter { !$0.contains("[internal: ") } == lines)
  }

  @Test func jsonPrintsTheDaemonsListWithEachActionsForm() throws {
    let daemon = try LoopDaemon()
    let listed = try tcactl(["actions", "--json"], socket: daemon.socketPath)
    #expect(listed.status == 0)
    guard case .array(let entries) = try JSONParser.parse(Array(listed.output.utf8)) else {
      Issue.record("expected an array, got \(listed.output)")
      return
    }
    let addItem = try #require(entries.first { $0[path: "path"] == .string("cart.addItem") })
    let json = try #require(addItem[path: "json"])
    #expect(CanonicalJSON.text(json) == #"{"cart":{"addItem":{"$argument":0}}}"#)
  }
}

@Suite struct AllowInternalActionsOptionTests {
  @Test func isOffUnlessGiven() throws {
    #expect(try DaemonOptions.parse([], environment: [:], app: SeedApps.self).allowsInternalActions == false)
    #expect(
      try DaemonOptions.parse(["--allow-internal-actions"], environment: [:], app: SeedApps.self).allowsInternalActions)
    #expect(DaemonOptions.usage(for: SeedApps.self).contains("--allow-internal-actions"))
  }

  /// A shop whose `placed` answers an HTTP request.
  enum ShopAction: DescribedAction {
    case add(Int)
    case placed(orderID: Int?)

    static let describedCases: [DescribedCase<Self>] = [
      .init(.add(1), "Adds a product"),
      .init(.placed(orderID: 1), "The order was placed", sentBy: .httpEffect),
    ]
  }

  @Test func refusesOnlyInternalActionsAndOnlyWithoutTheOption() throws {
    var strict = ActionAccess(schema: ShopAction.actionSchema, allowsInternal: false)
    let debugging = ActionAccess(schema: ShopAction.actionSchema, allowsInternal: true)
    let placed = try JSONValue(encoding: ShopAction.placed(orderID: 7))
    let added = try JSONValue(encoding: ShopAction.add(3))
    #expect(
      strict.refusal(of: placed)
        == "placed is sent by the HTTP effect, not by clients; "
        + "start storedaemon with --allow-internal-actions to send it for debugging")
    #expect(strict.refusal(of: added) == nil)
    #expect(debugging.refusal(of: placed) == nil)
    #expect(strict.listing(all: false) == (try CanonicalJSON.value(of: ShopAction.actionSchema.clientPaths)))
    #expect(strict.listing(all: true) == (try CanonicalJSON.value(of: ShopAction.actionSchema.allPaths)))
  }
}
