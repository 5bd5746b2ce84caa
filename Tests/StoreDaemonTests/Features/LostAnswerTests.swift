import ComposableCore
import Foundation
import Glibc
import JSON
import TestSupport
import Testing
import Wire

/// Requests a worker was handed and then never answered, because it died:
/// the daemon reports them as `interrupted`, not as never sent, and the cart
/// tells the customer the order may have been placed. Through a real daemon,
/// its real workers and a local store server.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct LostAnswerTests {
  /// The store takes the POST and holds its answer; the network worker is
  /// then killed. A plain "purchase failed" would have the customer pay twice.
  @Test func anOrderWhosePOSTReachedTheStoreBeforeTheNetworkWorkerDiedMayHaveBeenPlaced() throws {
    let api = try FakeSeedAPI()
    api.setFault(.hang, for: .carts)
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--request-timeout", "3600"])
    let network = try #require(try daemon.waitForWorkers()["network"])
    let client = try daemon.client()
    _ = try client.send(path: "cart.addItem", arguments: ["3"])
    _ = try client.send(path: "cart.payButtonTapped")
    _ = try client.send(path: "cart.alert.presented.confirmPurchase")
    try api.waitForRequests(to: .carts, count: 1, timeout: .seconds(30))
    #expect(kill(network, SIGKILL) == 0)

    try waitUntil("the cart's alert appears") { Self.hasAlert(try client.get(path: "/cart").value) }
    let cart = try client.get(path: "/cart").value
    #expect(cart[path: "alert", "title"] == .string("Order not confirmed"))
    guard case .string(let message)? = cart[path: "alert", "message"] else {
      Issue.record("the alert does not say the order may have been placed: \(cart[path: "alert"] ?? .null)")
      return
    }
    #expect(
      message == "The order was sent, but its answer was lost; it may or may not have been placed. "
        + "Check your orders before paying again.")
    #expect(cart[path: "orderStatus", "failed"] == .string(message))
    // Never sent again; the cart is kept for the customer to check.
    #expect(api.requests(to: .carts).count == 1)
    #expect(cart[path: "items"] != .array([]))
  }

  /// An order the network worker never received (its kind is degraded) was
  /// certainly not placed: the plain failure alert, which invites trying again.
  @Test func anOrderNoNetworkWorkerEverReceivedFailsPlainly() throws {
    let api = try FakeSeedAPI()
    let fakes = try TemporaryDirectory()
    let built = DaemonProcess.productsDirectory.appendingPathComponent("effectworker").path
    #expect(symlink(built, fakes.appending("effectworker")) == 0)
    // `false` exits 1 at once: every network worker crashes, and the kind is degraded.
    #expect(symlink("/bin/false", fakes.appending("effectworker-network")) == 0)
    let daemon = try DaemonProcess(
      arguments: api.daemonArguments + ["--effectworker", fakes.appending("effectworker")])
    try waitUntil("the network kind is degraded", timeout: .seconds(60)) {
      try daemon.workers()["network"]?["state"] == .string("degraded")
    }
    let client = try daemon.client()
    _ = try client.send(path: "cart.addItem", arguments: ["3"])
    _ = try client.send(path: "cart.payButtonTapped")
    _ = try client.sendAndWait(path: "cart.alert.presented.confirmPurchase", timeout: .seconds(30))
    let cart = try client.get(path: "/cart").value
    #expect(cart[path: "alert", "title"] == .string("Oops!"))
    guard case .string(let message)? = cart[path: "alert", "message"] else {
      Issue.record("no plain failure alert: \(cart[path: "alert"] ?? .null)")
      return
    }
    #expect(
      message == "Unable to send order, try again later. (The store cannot be reached right now. Try again shortly.)")
    #expect(api.requests(to: .carts).isEmpty)
  }

  /// Whether the cart JSON `cart` shows an alert.
  static func hasAlert(_ cart: JSONValue) -> Bool {
    guard let alert = cart[path: "alert"] else { return false }
    return alert != .null
  }
}
