import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing
import Wire

/// Every seed app end to end: actions sent to a real daemon, effects carried
/// out by its real worker processes against a local server with the seed
/// APIs' shapes, and the state read back.
@Suite struct FeatureEffectsTests {
  @Test func diceRollsThroughTheTimerWorker() throws {
    let daemon = try DaemonProcess()
    try daemon.waitForWorkers()
    let client = try daemon.client()
    let settled = try client.sendAndWait(path: "dice.view.rollButtonTapped", timeout: .seconds(10))
    #expect(settled.settledVersion == settled.version + 2)
    guard case .int(let value)? = try client.get(path: "/dice").value[path: "currentRoll"] else {
      Issue.record("the roll did not land")
      return
    }
    #expect((1...6).contains(value))
    #expect(try client.get(path: "/dice/rollHistory").value == .array([.int(value)]))
  }

  @Test func counterGetsANumberFact() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments)
    let client = try daemon.client()
    _ = try client.send(path: "counter.incrementButtonTapped")
    _ = try client.sendAndWait(path: "counter.numberFactButtonTapped", timeout: .seconds(10))
    #expect(try client.get(path: "/counter").value[path: "numberFact"] == .string(FakeSeedAPI.numberFact(about: 1)))
    #expect(api.requests(to: .numberFact).map(\.path) == ["/numbers/1"])
  }

  @Test func storeFetchesProductsAndPostsTheOrder() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments)
    let client = try daemon.client()
    // The bundled catalog serves before any fetch.
    #expect(try client.get(path: "/products/status").value == .object(["bundled": .object([:])]))
    _ = try client.sendAndWait(path: "products.fetchProducts", timeout: .seconds(10))
    #expect(try client.get(path: "/products/status").value == .object(["loaded": .object([:])]))
    // Product 21 exists only on the server: the live catalog replaced the bundled one.
    _ = try client.send(path: "cart.addItem", arguments: ["21"])
    _ = try client.send(path: "cart.addItem", arguments: ["21"])
    _ = try client.send(path: "cart.addItem", arguments: ["2"])
    _ = try client.send(path: "cart.payButtonTapped")
    _ = try client.sendAndWait(path: "cart.alert.confirmPurchase", timeout: .seconds(10))
    #expect(try client.get(path: "/cart/orderStatus").value[path: "placed"] != nil)

    let orders = api.requests(to: .carts)
    try #require(orders.count == 1)
    #expect(orders[0].method == "POST")
    let body = try #require(try JSONSerialization.jsonObject(with: orders[0].body) as? [String: Any])
    let lines = try #require(body["products"] as? [[String: Int]])
    #expect(Set(lines.map { [$0["productId"]!, $0["quantity"]!] }) == [[21, 2], [2, 1]])
    #expect(body["userId"] as? Int == 1)
  }

  @Test func aFailedOrderShowsTheFailureAlert() throws {
    let api = try FakeSeedAPI()
    api.setFault(.status(500), for: .carts)
    let daemon = try DaemonProcess(arguments: api.daemonArguments)
    let client = try daemon.client()
    _ = try client.send(path: "cart.addItem", arguments: ["3"])
    _ = try client.send(path: "cart.payButtonTapped")
    _ = try client.sendAndWait(path: "cart.alert.confirmPurchase", timeout: .seconds(10))
    let cart = try client.get(path: "/cart").value
    #expect(cart[path: "orderStatus", "failed"] != nil)
    #expect("\(cart[path: "alert"] ?? .null)".contains("500"))
    #expect(api.requests(to: .carts).count == 1)
  }

  @Test func anUnreachableStoreShowsAnErrorAndKeepsTheBundledCatalog() throws {
    // A port that was just free: the connection is refused.
    let closed = try FakeSeedAPI()
    let url = closed.storeAPIBaseURL
    closed.stop()
    let daemon = try DaemonProcess(arguments: ["--store-api", url])
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "products.fetchProducts", timeout: .seconds(20))
    let products = try client.get(path: "/products").value
    guard case .string(let reason)? = products[path: "status", "failed", "_0"] else {
      Issue.record("no failed status: \(products[path: "status"] ?? .null)")
      return
    }
    #expect(!reason.isEmpty)
    guard case .array(let rows)? = products[path: "rows"] else {
      Issue.record("no bundled rows: \(products[path: "rows"] ?? .null)")
      return
    }
    #expect(rows.count == 20)
    _ = try client.send(path: "cart.addItem", arguments: ["3"])
    #expect(try client.get(path: "/cart/items").value != .array([]))
  }

  @Test func profileLoads() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments)
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "profile.fetchProfile", timeout: .seconds(10))
    #expect("\(try client.get(path: "/profile").value)".contains("johnd"))
    #expect(api.requests(to: .user).map(\.path) == ["/store/users/1"])
  }

  @Test func aSavedBMIEntryIsStillThereAfterTheDaemonRestarts() throws {
    let first = try DaemonProcess()
    let client = try first.client()
    _ = try client.send(path: "bmi.input.binding.height", arguments: ["180"])
    _ = try client.send(path: "bmi.input.binding.weight", arguments: ["81"])
    _ = try client.sendAndWait(path: "bmi.input.saveButtonTapped", timeout: .seconds(10))
    guard case .array(let saved)? = try client.get(path: "/bmi/history").value[path: "records"], saved.count == 1 else {
      Issue.record("the entry was not saved")
      return
    }
    client.close()
    #expect(first.stop() == 0)

    let second = try DaemonProcess(reusing: first)
    let again = try second.client()
    _ = try again.sendAndWait(path: "bmi.history.onAppear", timeout: .seconds(10))
    #expect(try again.get(path: "/bmi/history").value[path: "records"] == .array(saved))
  }

  @Test func typingQuicklyMakesOneSearchRequest() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--search-debounce", "0.3"])
    let client = try daemon.client()
    for text in ["c", "ca", "cat"] { _ = try client.send(path: "search.textChanged", arguments: [text]) }
    _ = try api.waitForRequests(to: .gifSearch, count: 1)
    try waitUntil("the results land") {
      try client.get(path: "/search/isLoading").value == .bool(false)
        && client.get(path: "/search/results").value != .array([])
    }
    // Well past another debounce interval: still one request.
    usleep(600_000)
    let searches = api.requests(to: .gifSearch)
    #expect(searches.count == 1)
    #expect(searches.first?.query("q") == "cat")
    #expect(searches.first?.query("api_key") == api.gifAPIKey)
    #expect("\(try client.get(path: "/search/results").value)".contains(FakeSeedAPI.gifID(query: "cat", index: 1)))
  }

  @Test func aSupersededSearchIsAborted() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--search-debounce", "0.1"])
    let client = try daemon.client()
    // The first search is held by the server until the client gives up.
    api.setFault(.hang, for: .gifSearch, times: 1)
    _ = try client.send(path: "search.textChanged", arguments: ["dogs"])
    _ = try api.waitForRequests(to: .gifSearch, count: 1)
    _ = try client.send(path: "search.textChanged", arguments: ["cats"])
    _ = try api.waitForRequests(to: .gifSearch, count: 2)
    try waitUntil("the cats results land") {
      "\(try client.get(path: "/search/results").value)".contains(FakeSeedAPI.gifID(query: "cats", index: 1))
    }
    // The superseded request was aborted, not left to finish.
    _ = try api.server.waitForAbandonedRequests(count: 1)
  }

  @Test func aSupersededSearchsLateAnswerNeverLands() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--search-debounce", "0.1"])
    let watcher = try daemon.client("watcher")
    try watcher.subscribe(path: "/search")
    let client = try daemon.client()
    // The first search is answered, but only after the second has landed.
    let delay = Duration.milliseconds(1500)
    api.setFault(.delay(delay), for: .gifSearch, times: 1)
    _ = try client.send(path: "search.textChanged", arguments: ["dogs"])
    _ = try api.waitForRequests(to: .gifSearch, count: 1)
    let dogsAsked = ContinuousClock.now
    _ = try client.send(path: "search.textChanged", arguments: ["cats"])
    _ = try api.waitForRequests(to: .gifSearch, count: 2)
    try waitUntil("the cats results land") {
      "\(try client.get(path: "/search/results").value)".contains(FakeSeedAPI.gifID(query: "cats", index: 1))
    }
    #expect(ContinuousClock.now - dogsAsked < delay, "the cats results landed only after the dogs answer was due")
    // Well past the time the dogs answer was sent.
    let pause = delay + .milliseconds(500) - (ContinuousClock.now - dogsAsked)
    if pause > .zero { usleep(useconds_t(pause / .microseconds(1))) }
    let results = "\(try client.get(path: "/search/results").value)"
    #expect(results.contains(FakeSeedAPI.gifID(query: "cats", index: 1)))
    #expect(!results.contains(FakeSeedAPI.gifID(query: "dogs", index: 1)))

    // Nothing the watcher saw ever held a result for "dogs".
    let version = try client.get(path: "").version
    var seen: [String] = []
    while true {
      let message = try watcher.nextMessage()
      seen.append("\(message)")
      if case .diff(let diffVersion, _, _, _) = message, diffVersion >= version { break }
      if case .snapshot(let snapshotVersion, _, _, _) = message, snapshotVersion >= version { break }
    }
    #expect(!seen.joined().contains(FakeSeedAPI.gifID(query: "dogs", index: 1)))
  }

  @Test func aNetworkWorkerKilledMidRequestFailsTheFactAndTheNextOneArrives() throws {
    let api = try FakeSeedAPI()
    api.setFault(.hang, for: .numberFact)
    let daemon = try DaemonProcess(arguments: api.daemonArguments)
    let old = try #require(try daemon.waitForWorkers()["network"])
    let client = try daemon.client()
    _ = try client.send(path: "counter.numberFactButtonTapped")
    _ = try api.waitForRequests(to: .numberFact, count: 1)
    kill(old, SIGKILL)
    try waitUntil("the fact fails") { try client.get(path: "/counter/isLoading").value == .bool(false) }
    // A GET is safe to repeat: the counter says the answer was lost.
    #expect(
      try client.get(path: "/counter").value[path: "errorMessage"]
        == .string("The answer from the number facts service was lost. Try again."))

    api.clearFaults()
    #expect(try daemon.waitForWorkers()["network"] != old)
    _ = try client.sendAndWait(path: "counter.numberFactButtonTapped", timeout: .seconds(10))
    #expect(try client.get(path: "/counter").value[path: "numberFact"] == .string(FakeSeedAPI.numberFact(about: 0)))
  }
}
