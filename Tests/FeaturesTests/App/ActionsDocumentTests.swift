import ActionLanguage
import ComposableCore
import FoundationEssentials
import JSON
import Testing
import Wire

@testable import Features

/// The examples of docs/PROTOCOL.md, "Actions as JSON": the listed entries
/// appear there byte for byte, and each action the rules spell out is what
/// its entry gives when filled in, and decodes.
@Suite struct ActionsDocumentTests {
  static let document: String = {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
    return (try? String(decoding: Data(contentsOf: url), as: UTF8.self)) ?? ""
  }()

  let schema = AppFeature.Action.actionSchema

  func entry(_ path: String) throws -> ActionPathEntry {
    try #require(schema.allPaths.first { $0.path == path }, "no entry \(path)")
  }

  @Test(arguments: [
    "cart.addItem", "products.rows[<id: Int>].addToCart.plusButtonTapped", "bmi.input.binding.height",
  ])
  func theListedEntryIsDocumented(path: String) throws {
    let text = CanonicalJSON.text(try CanonicalJSON.value(of: try entry(path)))
    #expect(Self.document.contains("\n" + text + "\n"), "not in docs/PROTOCOL.md: \(text)")
  }

  static let examples: [(path: String, arguments: [JSONValue], ids: [JSONValue], json: String)] = [
    ("cart.addItem", [.int(3)], [], #"{"cart":{"addItem":3}}"#),
    (
      "bmi.history.loaded", [.array([]), .array([])], [],
      #"{"bmi":{"history":{"loaded":{"records":[],"unreadable":[]}}}}"#
    ),
    ("cart.orderPlaced", [.null], [], #"{"cart":{"orderPlaced":{"orderID":null}}}"#),
    (
      "products.rows[<id: Int>].addToCart.plusButtonTapped", [], [.int(3)],
      #"{"products":{"rows":{"element":{"action":{"addToCart":"plusButtonTapped"},"id":3}}}}"#
    ),
    (
      "bmi.input.binding.height", [.string("180")], [],
      #"{"bmi":{"input":{"binding":{"field":"height","value":"180"}}}}"#
    ),
    ("dice.destination.dismiss", [], [], #"{"dice":{"destination":"dismiss"}}"#),
    (
      "inventory.destination.presented.addItem.saveButtonTapped", [], [],
      #"{"inventory":{"destination":{"presented":{"addItem":"saveButtonTapped"}}}}"#
    ),
    (
      "inventory.path[<id: Int>].edit.saveButtonTapped", [], [.int(1)],
      #"{"inventory":{"path":{"element":{"action":{"edit":"saveButtonTapped"},"id":1}}}}"#
    ),
    ("inventory.path.popFrom", [.int(1)], [], #"{"inventory":{"path":{"popFrom":{"id":1}}}}"#),
    ("cart.alert.presented.confirmPurchase", [], [], #"{"cart":{"alert":{"presented":"confirmPurchase"}}}"#),
  ]

  /// The navigation states docs/PROTOCOL.md shows ("State as JSON") are
  /// what the daemon's encoder writes of the inventory's.
  @Test func theDocumentedNavigationStatesAreTheInventorysJSON() throws {
    var state = Inventory.State()
    state.destination = .addItem(ItemForm.State(item: Item(id: 1)))
    let destination = CanonicalJSON.text(try JSONValueEncoder.encode(state.destination))
    #expect(Self.document.contains("\n  " + destination + "\n"), "not in docs/PROTOCOL.md: \(destination)")

    state.items = [Item(id: 1, name: "Tea", quantity: 3)]
    state.path = [.detail(ItemDetail.State(itemID: 1)), .edit(ItemForm.State(item: state.items[0]))]
    let path = CanonicalJSON.text(try JSONValueEncoder.encode(state.path))
    #expect(Self.document.contains("\n  " + path + "\n"), "not in docs/PROTOCOL.md: \(path)")
  }

  /// The pay alert docs/PROTOCOL.md shows ("Alerts") is the cart's.
  @Test func theDocumentedAlertIsTheCartsJSON() throws {
    let alert = CanonicalJSON.text(try JSONValueEncoder.encode(CartAlert.confirmPurchase(total: 55.99)))
    #expect(Self.document.contains("\n" + alert + "\n"), "not in docs/PROTOCOL.md: \(alert)")
  }

  @Test(arguments: examples)
  func aDocumentedActionIsItsEntryFilledIn(
    path: String, arguments: [JSONValue], ids: [JSONValue], json: String
  ) throws {
    #expect(Self.document.contains(json), "not in docs/PROTOCOL.md: \(json)")
    let filled = ActionTemplate.filled(try entry(path).json, arguments: arguments, ids: ids)
    #expect(CanonicalJSON.text(filled) == json)
    _ = try JSONValueDecoder.decode(AppFeature.Action.self, from: filled)
  }
}
