import ComposableCore
import Dispatch
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing
import Wire

/// Every seed app end to end: actions sent to a real daemon, effects carried
/// out by its real worker processes against a local server with the seed
/// APIs' shapes, and the state read back.
@Suite(.ownThreads) struct FeatureEffectsTests {
  @Test func diceRollsThroughTheTimerWorker() throws {
    let daemon = try DaemonProcess()
    try daemon.waitForWorkers()
    let client = try daemon.client()
    let settled = try client.sendAndWait(path: "dice.view.rollButtonTapped", timeout: eventTimeout)
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
    _ = try client.sendAndWait(path: "counter.numberFactButtonTapped", timeout: eventTimeout)
    #expect(try client.get(path: "/counter").value[path: "numberFact"] == .string(FakeSeedAPI.numberFact(about: 1)))
    #expect(api.requests(to: .numberFact).map(\.path) == ["/numbers/1"])
  }

  @Test func storeFetchesProductsAndPostsTheOrder() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments)
    let client = try daemon.client()
    // The bundled catalog serves before any fetch.
    #expect(try client.get(path: "/products/status").value == .string("bundled"))
    _ = try client.sendAndWait(path: "products.fetchProducts", timeout: eventTimeout)
    #expect(try client.get(path: "/products/status").value == .string("loaded"))
    // Product 21 exists only on the server: the live catalog replaced the bundled one.
    _ = try client.send(path: "cart.addItem", arguments: ["21"])
    _ = try client.send(path: "cart.addItem", arguments: ["21"])
    _ = try client.send(path: "cart.addItem", arguments: ["2"])
    _ = try client.send(path: "cart.payButtonTapped")
    _ = try client.sendAndWait(path: "cart.alert.presented.confirmPurchase", timeout: eventTimeout)
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
    _ = try client.sendAndWait(path: "cart.alert.presented.confirmPurchase", timeout: eventTimeout)
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
    _ = try client.sendAndWait(path: "products.fetchProducts", timeout: eventTimeout)
    let products = try client.get(path: "/products").value
    guard case .string(let reason)? = products[path: "status", "failed"] else {
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
    _ = try client.sendAndWait(path: "profile.fetchProfile", timeout: eventTimeout)
    #expect("\(try client.get(path: "/profile").value)".contains("johnd"))
    #expect(api.requests(to: .user).map(\.path) == ["/store/users/1"])
  }

  @Test func aSavedBMIEntryIsStillThereAfterTheDaemonRestarts() throws {
    let first = try DaemonProcess()
    let client = try first.client()
    _ = try client.send(path: "bmi.input.binding.height", arguments: ["180"])
    _ = try client.send(path: "bmi.input.binding.weight", arguments: ["81"])
    _ = try client.sendAndWait(path: "bmi.input.saveButtonTapped", timeout: eventTimeout)
    guard case .array(let saved)? = try client.get(path: "/bmi/history").value[path: "records"], saved.count == 1 else {
      Issue.record("the entry was not saved")
      return
    }
    client.close()
    #expect(first.stop() == 0)

    let second = try DaemonProcess(reusing: first)
    let again = try second.client()
    _ = try again.sendAndWait(path: "bmi.history.onAppear", timeout: eventTimeout)
    #expect(try again.get(path: "/bmi/history").value[path: "records"] == .array(saved))
  }

  @Test func typingQuicklyMakesOneSearchRequest() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--search-debounce", "1"])
    let client = try daemon.client()
    // Typed in one write: the daemon reads the three keystrokes together and
    // reduces them back to back, so they cannot straddle the 1 s debounce.
    let typing = try RawConnection(daemon)
    try typing.hello()
    try typing.write(
      ["c", "ca", "cat"].enumerated().flatMap { id, text in
        try FrameEncoder.frame(
          Array(#"{"type":"send","id":\#(id + 1),"path":"search.textChanged","arguments":["\#(text)"]}"#.utf8))
      })
    for _ in 0..<3 {
      guard case .ack? = try typing.read() else {
        Issue.record("each keystroke must be acknowledged")
        return
      }
    }
    _ = try api.waitForRequests(to: .gifSearch, count: 1, timeout: eventTimeout)
    try waitUntil("the results land") {
      try client.get(path: "/search/isLoading").value == .bool(false)
        && client.get(path: "/search/results").value != .array([])
    }
    // Every effect has run its course: a search the debounce let through
    // would have been made by now.
    try waitUntilNoEffectsInFlight(client)
    let searches = api.requests(to: .gifSearch)
    #expect(searches.count == 1)
    // Each keystroke restarted the debounce: it elapsed once.
    let elapsed = try client.log(since: nil, last: nil).records.filter {
      $0.summary.hasPrefix("search.debounceElapsed")
    }
    #expect(elapsed.count == 1, "\(elapsed.map(\.summary))")
    #expect(searches.first?.query("q") == "cat")
    #expect(searches.first?.query("api_key") == api.gifAPIKey)
    #expect("\(try client.get(path: "/search/results").value)".contains(FakeSeedAPI.gifID(query: "cat", index: 1)))
  }

  @Test func aSupersededSearchIsAborted() throws {
    let api = try FakeSeedAPI()
    // No request times out here: the first is given up only if it is cancelled.
    let daemon = try DaemonProcess(
      arguments: api.daemonArguments + ["--search-debounce", "0.1", "--request-timeout", "3600"])
    let client = try daemon.client()
    // The first search is held by the server until the client gives up.
    api.setFault(.hang, for: .gifSearch, times: 1)
    _ = try client.send(path: "search.textChanged", arguments: ["dogs"])
    _ = try api.waitForRequests(to: .gifSearch, count: 1, timeout: eventTimeout)
    _ = try client.send(path: "search.textChanged", arguments: ["cats"])
    _ = try api.waitForRequests(to: .gifSearch, count: 2, timeout: eventTimeout)
    try waitUntil("the cats results land") {
      "\(try client.get(path: "/search/results").value)".contains(FakeSeedAPI.gifID(query: "cats", index: 1))
    }
    // The superseded request was aborted, not left to finish.
    _ = try api.server.waitForAbandonedRequests(count: 1, timeout: eventTimeout)
  }

  @Test func aSupersededSearchsLateAnswerNeverLands() throws {
    let api = try FakeSeedAPI()
    // The first search's answer is held until the second search has landed,
    // then sent: late by construction, whatever the machine's speed. The
    // daemon talks to the fake through this server, which holds it.
    let dogsAnswer = DispatchSemaphore(value: 0)
    let holding = Mutex(true)
    let server = try TestHTTPServer { request in
      let hold =
        request.path.hasSuffix("/gifs/search")
        && holding.withLock { first in
          defer { first = false }
          return first
        }
      // A generous bound, so that a failing test still ends.
      if hold { _ = dogsAnswer.wait(timeout: .now() + 120) }
      // Sent through the server's pause, which notes a client that went away.
      return hold ? api.respond(to: request).delayed(by: .milliseconds(1)) : api.respond(to: request)
    }
    let arguments = [
      "--store-api", server.baseURL + "/store", "--numbers-api", server.baseURL + "/numbers",
      "--gif-api", server.baseURL + "/gifs", "--gif-api-key", api.gifAPIKey, "--search-debounce", "0.1",
      "--request-timeout", "3600",
    ]
    let daemon = try DaemonProcess(arguments: arguments)
    let watcher = try daemon.client("watcher")
    try watcher.subscribe(path: "/search")
    let client = try daemon.client()
    _ = try client.send(path: "search.textChanged", arguments: ["dogs"])
    _ = try server.waitForRequests(count: 1, timeout: eventTimeout)
    _ = try client.send(path: "search.textChanged", arguments: ["cats"])
    _ = try server.waitForRequests(count: 2, timeout: eventTimeout)
    try waitUntil("the cats results land") {
      "\(try client.get(path: "/search/results").value)".contains(FakeSeedAPI.gifID(query: "cats", index: 1))
    }
    // Now the dogs answer goes out. Once no effect is in flight, it has
    // landed if it ever will: a request not cancelled stays in flight until
    // its answer is reduced.
    dogsAnswer.signal()
    try waitUntilNoEffectsInFlight(client)
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
    // The request does not time out: only the worker's death can end it.
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--request-timeout", "3600"])
    let old = try #require(try daemon.waitForWorkers()["network"])
    let client = try daemon.client()
    _ = try client.send(path: "counter.numberFactButtonTapped")
    _ = try api.waitForRequests(to: .numberFact, count: 1, timeout: eventTimeout)
    kill(old, SIGKILL)
    try waitUntil("the fact fails") { try client.get(path: "/counter/isLoading").value == .bool(false) }
    // A GET is safe to repeat: the counter says the answer was lost.
    #expect(
      try client.get(path: "/counter").value[path: "errorMessage"]
        == .string("The answer from the number facts service was lost. Try again."))

    api.clearFaults()
    #expect(try daemon.waitForWorkers()["network"] != old)
    _ = try client.sendAndWait(path: "counter.numberFactButtonTapped", timeout: eventTimeout)
    #expect(try client.get(path: "/counter").value[path: "numberFact"] == .string(FakeSeedAPI.numberFact(about: 0)))
  }
}
