import Foundation
import JSON
import Testing
import Wire

/// Seed 003's settings and inventory through a real daemon, driven with
/// `tcactl` as a person would: a form presented and saved, a stack pushed
/// and popped by screen ids, and what is gone refused with the reason.
@Suite struct NavigationFlowTests {
  /// Runs tcactl and returns what it printed, failing the test on a non-zero exit.
  private func run(_ arguments: [String], _ daemon: some ServingDaemon) throws -> String {
    let result = try tcactl(arguments, socket: daemon.socketPath)
    #expect(result.status == 0, "tcactl \(arguments.joined(separator: " ")): \(result.error)")
    return result.output
  }

  private func json(_ path: String, _ daemon: some ServingDaemon) throws -> JSONValue {
    try JSONParser.parse(Array(run(["get", path, "--json"], daemon).utf8))
  }

  @Test func theInventorysFormsAndStackWorkByPathAndID() throws {
    let daemon = try LoopDaemon()
    _ = try run(["send", "inventory.addButtonTapped"], daemon)
    _ = try run(["send", "inventory.destination.presented.addItem.binding.name", "Tea"], daemon)
    _ = try run(["send", "inventory.destination.presented.addItem.binding.quantity", "3"], daemon)
    #expect(
      try json("inventory.destination", daemon)
        == JSONParser.parse(
          Array(
            #"{"addItem":{"item":{"id":1,"name":"Tea","notes":"","quantity":3},"nameError":null,"quantityError":null}}"#
              .utf8)))
    _ = try run(["send", "inventory.destination.presented.addItem.saveButtonTapped"], daemon)
    #expect(try json("inventory.destination", daemon) == .null)
    #expect(try json("inventory.items.0.name", daemon) == .string("Tea"))

    // The list → the detail → its edit screen, each screen with its id.
    _ = try run(["send", "inventory.detailButtonTapped", "1"], daemon)
    _ = try run(["send", "inventory.path[0].detail.editButtonTapped"], daemon)
    #expect(
      try json("inventory.path", daemon)
        == JSONParser.parse(
          Array(
            (#"{"elements":[{"id":0,"state":{"detail":{"itemID":1}}},"#
              + #"{"id":1,"state":{"edit":{"item":{"id":1,"name":"Tea","notes":"","quantity":3},"#
              + #""nameError":null,"quantityError":null}}}],"nextID":2}"#)
              .utf8)))
    _ = try run(["send", "inventory.path[1].edit.binding.quantity", "5"], daemon)
    _ = try run(["send", "inventory.path[1].edit.saveButtonTapped"], daemon)
    #expect(try json("inventory.items.0.quantity", daemon) == .int(5))
    #expect(try json("inventory.path.elements", daemon).arrayCount == 1)

    // A screen that is gone is refused with the reason, the state unchanged.
    let version = try daemon.client().get().version
    let refused = try tcactl(["send", "inventory.path[1].edit.saveButtonTapped"], socket: daemon.socketPath)
    #expect(refused.status == 1)
    #expect(
      refused.error
        == "tcactl: inventory.path[1].edit.saveButtonTapped was not applied: path has no screen with id 1; "
        + "the state is unchanged and no version was used\n")
    #expect(try daemon.client().get().version == version)

    // Back to the list; the next screen gets a new id.
    _ = try run(["send", "inventory.path.popFrom", "0"], daemon)
    _ = try run(["send", "inventory.detailButtonTapped", "1"], daemon)
    #expect(try json("inventory.path.elements.0.id", daemon) == .int(2))
  }

  @Test func tcactlActionsShowsHowToAddressAStack() throws {
    let daemon = try LoopDaemon()
    let listing = try run(["actions"], daemon)
    #expect(listing.contains("inventory.path[<id: Int>].detail.editButtonTapped"))
    #expect(listing.contains("inventory.path.popFrom <id: Int>"))
    let mistake = try tcactl(["send", "inventory.path.editButtonTapped"], socket: daemon.socketPath)
    #expect(mistake.status == 1)
    #expect(mistake.error.contains("inventory.path is a navigation stack; name a screen by id or go back"))
  }

  @Test func theSettingsArePresentedEditedAndSaved() throws {
    let daemon = try LoopDaemon()
    _ = try run(["send", "parent.settingsButtonTapped"], daemon)
    _ = try run(["send", "parent.settings.presented.binding.displayName", "Ada"], daemon)
    _ = try run(["send", "parent.settings.presented.binding.theme", "dark"], daemon)
    _ = try run(["send", "parent.settings.presented.saveButtonTapped"], daemon)
    #expect(
      try json("parent.preferences", daemon)
        == JSONParser.parse(Array(#"{"displayName":"Ada","isHapticFeedbackEnabled":true,"theme":"dark"}"#.utf8)))
    #expect(try json("parent.settings", daemon) == .null)
    let refused = try tcactl(["send", "parent.settings.presented.saveButtonTapped"], socket: daemon.socketPath)
    #expect(refused.status == 1)
    #expect(refused.error.contains("nothing is presented at settings"))
  }

  /// Seed 001's pay alert, drawn from `get` alone: its title, message and
  /// buttons, each naming the path it sends below `cart.alert.presented`.
  @Test func thePayAlertIsReadFromTheStateAndAnsweredByItsButtons() throws {
    let daemon = try LoopDaemon()
    _ = try run(["send", "cart.addItem", "3"], daemon)
    _ = try run(["send", "cart.payButtonTapped"], daemon)
    #expect(
      try json("cart.alert", daemon)
        == JSONParser.parse(
          Array(
            (#"{"buttons":[{"action":"confirmPurchase","label":"Pay $55.99","path":"confirmPurchase","role":null},"#
              + #"{"action":"cancelPurchase","label":"Cancel","path":"cancelPurchase","role":"cancel"}],"#
              + #""message":"Do you want to proceed with your purchase of $55.99?","title":"Confirm your purchase"}"#)
              .utf8)))
    _ = try run(["send", "cart.alert.presented.cancelPurchase"], daemon)
    #expect(try json("cart.alert", daemon) == .null)
    let refused = try tcactl(["send", "cart.alert.presented.confirmPurchase"], socket: daemon.socketPath)
    #expect(refused.status == 1)
    #expect(refused.error.contains("was not applied: nothing is presented at alert"))
  }
}

extension JSONValue {
  /// How many elements an array holds; -1 for anything else.
  fileprivate var arrayCount: Int {
    if case .array(let elements) = self { elements.count } else { -1 }
  }
}
