import Features
import Foundation
import Glibc
import JSON
import TestSupport
import Testing
import Wire

/// The apps' pages in a real browser (Debian's `chromium`, headless, driven
/// through the DevTools protocol): a person's clicks and keystrokes, and
/// what the page then shows, checked against the daemon's state as
/// `tcactl get` reads it.
@Suite(.ownThreads, .serialized, .enabled(if: Browser.isInstalled, "needs Debian's chromium (.ci/run installs it)"))
struct BrowserTests {
  /// A daemon with every feature pointed at `api`, `tcaweb` for it, and a
  /// browser.
  struct Setup {
    let api: FakeSeedAPI
    let daemon: DaemonProcess
    let web: WebClientProcess
    let browser: Browser

    init(arguments: [String] = []) throws {
      api = try FakeSeedAPI()
      daemon = try DaemonProcess(arguments: api.daemonArguments + ["--fsync", "never"] + arguments)
      web = try WebClientProcess(socket: daemon.socketPath)
      browser = try Browser(directory: daemon.directory)
    }

    /// The page of `screen`, once its state has arrived.
    func open(_ screen: String) throws -> BrowserPage {
      let page = try browser.open("http://127.0.0.1:\(web.port)/#\(screen)")
      try page.waitUntil("document.body.dataset.version !== '' && document.querySelector('#screen h2')")
      return page
    }

    /// What `tcactl get PATH --json` prints, parsed.
    func get(_ path: String) throws -> JSONValue {
      let run = try tcactl(["get", path, "--json"], socket: daemon.socketPath)
      return try JSONParser.parse(Array(run.output.utf8))
    }

    /// The action log's summaries, oldest first.
    func loggedActions() throws -> [String] {
      try daemon.client().log(since: nil, last: 1000).records.map(\.summary)
    }
  }

  /// Collects what the page throws from now on, read by ``pageErrors(_:)``.
  static func collectErrors(_ page: BrowserPage) throws {
    try page.evaluate(
      "window.pageErrors = []; addEventListener('error', e => pageErrors.push(String(e.message)));"
        + " addEventListener('unhandledrejection', e => pageErrors.push(String(e.reason))); true")
  }

  static func pageErrors(_ page: BrowserPage) throws -> JSONValue {
    try page.evaluate("window.pageErrors")
  }

  @Test func theCounterCountsWhatIsClicked() throws {
    let setup = try Setup()
    let page = try setup.open("counter")
    #expect(try page.text("#screen .count") == "0")
    for expected in 1...3 {
      try page.click("#screen button[aria-label=increment]")
      try page.waitUntil("document.querySelector('#screen .count').textContent === '\(expected)'")
    }
    try page.click("#screen button[aria-label=decrement]")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '2'")
    #expect(try setup.get("counter.count") == .int(2))
  }

  @Test func aRollLandsAndCanBeUndone() throws {
    let setup = try Setup(arguments: ["--dice-roll", "0"])
    let page = try setup.open("dice")
    try page.click("#roll")
    try page.waitUntil("document.querySelector('#roll-count').textContent === '1'")
    let shown = try page.text(".die")
    #expect(["1", "2", "3", "4", "5", "6"].contains(shown))
    #expect(try setup.get("dice.currentRoll") == .int(Int(shown)!))
    #expect(try page.text("#last-rolls") == shown)
    try page.click("#undo")
    try page.waitUntil("document.querySelector('#roll-count').textContent === '0'")
    #expect(try setup.get("dice.rollHistory") == .array([]))
  }

  /// Add to the cart from a product's row, pay through the alert the state
  /// describes, and see the order's outcome.
  @Test func addToCartAndPayThroughTheAlert() throws {
    let setup = try Setup()
    let page = try setup.open("store")
    // A click on the tab fetches the live catalog, which replaces the
    // bundled rows (opening the page sends nothing).
    try page.click("#tabs button[data-screen=store]")
    try page.waitUntil("document.querySelector('.products[data-status=loaded] .row[data-product=\"1\"]')")
    try page.click(".row[data-product=\"1\"] .plus")
    try page.click(".row[data-product=\"1\"] .plus")
    try page.waitUntil("document.querySelector('.row[data-product=\"1\"] .quantity').textContent === '2'")
    let total = try page.text("#total")
    guard case .string(let expectedTotal) = try setup.get("cart.view.totalText") else {
      Issue.record("no total in the state")
      return
    }
    #expect(total == expectedTotal)
    try page.click("#pay")
    try page.waitUntil("document.querySelector('.alert')")
    #expect(try page.text("#alert-title") == "Confirm your purchase")
    #expect(try page.text(".alert-message").contains(expectedTotal))
    let pay = try page.evaluate("[...document.querySelectorAll('.alert button')].map(b => b.textContent)")
    #expect(pay == .array([.string("Pay \(expectedTotal)"), .string("Cancel")]))
    try page.click(".alert button[data-action=\"cart.alert.presented.confirmPurchase\"]")
    try page.waitUntil("document.querySelector('#order-status').textContent.startsWith('Order')")
    #expect(try page.text("#order-status").hasSuffix("placed."))
    try page.waitUntil("document.querySelector('#alert-title')?.textContent === 'Thank you!'")
    #expect(try page.text(".alert-message").hasPrefix("Your order"))
    try page.click(".alert button")
    try page.waitUntil("document.querySelector('.alert') === null")
    #expect(try setup.get("cart.alert") == .null)
    try setup.api.waitForRequests(to: .carts, count: 1)
  }

  /// A typo in the height shows the app's message under the field; fixing
  /// it shows the result and lets the measurement be saved.
  @Test func aBMITypoShowsItsMessage() throws {
    let setup = try Setup()
    let page = try setup.open("bmi")
    try page.type("17x", into: "#height")
    try page.waitUntil("document.querySelector('#height-error').textContent !== 'Enter your height in cm.'")
    guard case .string(let message) = try setup.get("bmi.input.heightError") else {
      Issue.record("no height error in the state")
      return
    }
    #expect(try page.text("#height-error") == message)
    #expect(message.contains("must be a number"))
    #expect(try page.evaluate("document.querySelector('#save').disabled") == .bool(true))
    try page.type("180", into: "#height")
    try page.type("75", into: "#weight")
    try page.waitUntil("document.querySelector('#bmi-result').textContent !== ''")
    #expect(try page.text("#bmi-result") == "BMI 23.1: Normal")
    #expect(try page.evaluate("document.querySelector('#height').value") == .string("180"))
    try page.click("#save")
    try page.waitUntil("document.querySelector('.alert')")
    #expect(try page.text("#alert-title") == "BMI Saved!")
    try page.click(".alert button")
    try page.waitUntil(
      "document.querySelector('.alert') === null && document.querySelectorAll('#bmi-history li').length === 1")
    guard case .string(let date) = try setup.get("bmi.history.view.rows.0.dateText") else {
      Issue.record("no row in the history's view")
      return
    }
    #expect(try page.text("#bmi-history li").hasPrefix("\(date): 180 cm, 75 kg → 23.1 (Normal)"))
  }

  /// Typed a key at a time, the search is made once the typing pauses, and
  /// its results land on the page.
  ///
  /// The timer worker is stopped while the keys are typed, so however slowly
  /// a busy machine types them no debounce can elapse between two: each
  /// key's timer is cancelled by the next, and only the last one fires once
  /// the worker runs again. (The worker timeout is the test's, so the
  /// stopped worker is not killed for missing pings.)
  @Test func aSearchLandsOnceAfterTheDebounce() throws {
    let setup = try Setup(arguments: ["--search-debounce", "0.3", "--worker-timeout", "3600"])
    let page = try setup.open("search")
    let timer = try #require(try setup.daemon.waitForWorkers()["timer"])
    kill(timer, SIGSTOP)
    defer { kill(timer, SIGCONT) }
    try page.click("#search-text")
    for character in "cats" {
      try page.type(character: character)
    }
    try waitUntil("the daemon has reduced every key") { try setup.get("search.text") == .string("cats") }
    kill(timer, SIGCONT)
    try page.waitUntil("document.querySelectorAll('#gifs li').length > 0")
    try waitUntilNoEffectsInFlight(setup.daemon.client())
    let searches = setup.api.requests(to: .gifSearch)
    #expect(searches.count == 1, "\(searches)")
    #expect(searches.first?.query("q") == "cats")
    guard case .array(let results) = try setup.get("search.results") else {
      Issue.record("no results in the state")
      return
    }
    #expect(try page.evaluate("document.querySelectorAll('#gifs li').length") == .int(results.count))
  }

  /// The daemon killed and started again: the page says it is reconnecting,
  /// resumes from its last version, and what was sent meanwhile shows.
  @Test func thePageResumesAfterTheDaemonRestarts() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--fsync", "always"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    let browser = try Browser(directory: daemon.directory)
    let page = try browser.open("http://127.0.0.1:\(web.port)/#counter")
    try page.waitUntil("document.querySelector('#screen .count')")
    try page.click("#screen button[aria-label=increment]")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '1'")
    kill(daemon.pid, SIGKILL)
    daemon.process.waitUntilExit()
    try page.waitUntil("document.querySelector('#connection').dataset.state === 'reconnecting'")
    let restarted = try DaemonProcess(reusing: daemon, arguments: api.daemonArguments + ["--fsync", "always"])
    _ = try restarted.client().send(path: "counter.incrementButtonTapped")
    try page.waitUntil("document.querySelector('#connection').dataset.state === 'live'")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '2'")
    try page.click("#screen button[aria-label=increment]")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '3'")
    #expect(try restarted.client().get(path: "/counter/count").value == .int(3))
    // Every version since the page's snapshot reached its log, once, in
    // order, up to the daemon's.
    guard case .array(let logged) = try page.evaluate("[...document.querySelectorAll('#log li')].map(li => li.value)"),
      case .int(let newest)? = logged.first
    else {
      Issue.record("nothing in the page's log")
      return
    }
    #expect(UInt64(newest) == (try restarted.client().get().version))
    let consecutive: [JSONValue] = (newest - logged.count + 1...newest).reversed().map { JSONValue.int($0) }
    #expect(Array(logged) == consecutive)
    #expect(logged.count >= 3)
  }

  /// Seed 003: the settings presented over the counter, edited and saved;
  /// an inventory item added through its form and opened on the stack.
  @Test func settingsAreEditedAndSavedAndAnItemIsAddedAndOpened() throws {
    let setup = try Setup()
    let page = try setup.open("settings")
    #expect(try page.text("#greeting") == "Hello, Friend!")
    try page.click("#open-settings")
    try page.type("Ada", into: "#display-name")
    try page.waitUntil("document.querySelector('#display-name').value === 'Ada'")
    try waitUntil("the draft holds the name typed") {
      try setup.get("parent.settings.draft.displayName") == .string("Ada")
    }
    try page.click("#save-settings")
    try page.waitUntil("document.querySelector('#greeting').textContent === 'Hello, Ada!'")
    #expect(try page.evaluate("document.querySelector('#settings') === null") == .bool(true))
    #expect(try setup.get("parent.preferences.displayName") == .string("Ada"))

    try page.click("#tabs button[data-screen=inventory]")
    try page.click("#add-item")
    try page.type("Hammer", into: ".item-form .item-name")
    try waitUntil("the form holds the name typed") {
      try setup.get("inventory.destination.addItem.item.name") == .string("Hammer")
    }
    try page.click(".item-form .save-item")
    try page.waitUntil("document.querySelector('#items li .name')?.textContent === 'Hammer'")
    try page.click("#items li button[data-action=\"inventory.detailButtonTapped\"]")
    try page.waitUntil("document.querySelector('.sheet h3')?.textContent === 'Hammer'")
    #expect(
      try setup.get("inventory.items")
        == .array([
          .object(["id": .int(1), "name": .string("Hammer"), "notes": .string(""), "quantity": .int(1)])
        ]))
  }

  /// Any hosted app: the state as a tree and a form for every action its
  /// daemon lists; what a send changed is highlighted.
  @Test func aHostedAppGetsTheStateTreeAndItsActionsForms() throws {
    let daemon = try DaemonProcess(executable: "shelf-v1", arguments: ["--fsync", "never"])
    let web = try WebClientProcess(socket: daemon.socketPath, arguments: ["--app", "shelfd"])
    let browser = try Browser(directory: daemon.directory)
    let page = try browser.open("http://127.0.0.1:\(web.port)/")
    try page.waitUntil("document.querySelector('#state details')")
    #expect(
      try page.evaluate("[...document.querySelectorAll('#tabs button')].map(b => b.textContent)")
        == .array([.string("State"), .string("Inspector")]))
    try page.waitUntil("document.querySelector('#actions form[data-path=\"rename\"]')")
    try page.type("Attic", into: "#actions form[data-path=\"rename\"] input")
    try page.click("#actions form[data-path=\"rename\"] button")
    try page.waitUntil("document.querySelector('.leaf.changed[data-path=\"/title\"]')")
    #expect(try page.text(".leaf[data-path=\"/title\"]") == "title: \"Attic\"")
    #expect(try daemon.client().get(path: "/title").value == .string("Attic"))
  }

  /// A screenshot of every screen, each after a few actions, as PNG files:
  /// into `$TCAWEB_SCREENSHOTS` when set (docs/WEB.md, "Screenshots"),
  /// else into the test's directory, where they are only checked.
  @Test func screenshotsOfEveryScreen() throws {
    let setup = try Setup(arguments: ["--dice-roll", "0", "--search-debounce", "0.2"])
    let directory = ProcessInfo.processInfo.environment["TCAWEB_SCREENSHOTS"] ?? setup.daemon.directory
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let page = try setup.open("counter")
    var written: [String] = []
    func shoot(_ name: String) throws {
      let path = "\(directory)/\(name).png"
      try page.screenshot(to: path)
      written.append(path)
    }
    func show(_ screen: String) throws {
      try page.click("#tabs button[data-screen=\(screen)]")
      try page.waitUntil("document.querySelector('#screen [data-screen=\(screen)]') || '\(screen)' === 'state'")
    }
    for _ in 0..<3 { try page.click("#screen button[aria-label=increment]") }
    try page.waitUntil("document.querySelector('#screen .count').textContent === '3'")
    try shoot("counter")
    try show("dice")
    for rolls in 1...3 {
      try page.click("#roll")
      try page.waitUntil("document.querySelector('#roll-count').textContent === '\(rolls)'")
    }
    try shoot("dice")
    try show("store")
    try page.waitUntil("document.querySelector('.products[data-status=loaded]')")
    try page.click(".row[data-product=\"1\"] .plus")
    try page.click(".row[data-product=\"3\"] .plus")
    try page.waitUntil("document.querySelectorAll('.cart li').length === 2")
    try page.click("#pay")
    try page.waitUntil("document.querySelector('.alert')")
    try shoot("store")
    // The alert is modal: the tabs take clicks again once it is closed.
    try page.click(".alert button[data-role=cancel]")
    try page.waitUntil("document.querySelector('.alert') === null")
    try show("bmi")
    try page.type("17x", into: "#height")
    try page.type("70", into: "#weight")
    try page.waitUntil("document.querySelector('#height-error').textContent.includes('number')")
    try shoot("bmi")
    try show("search")
    try page.click("#search-text")
    for character in "cats" { try page.type(character: character) }
    try page.waitUntil("document.querySelectorAll('#gifs li').length > 0")
    try shoot("search")
    try show("settings")
    try page.click("#open-settings")
    try page.waitUntil("document.querySelector('#settings')")
    try shoot("settings")
    try show("inventory")
    try page.click("#add-item")
    try page.type("Hammer", into: ".item-form .item-name")
    try page.waitUntil("document.querySelector('.item-form .item-name').value === 'Hammer'")
    try shoot("inventory")
    try show("state")
    try page.waitUntil("document.querySelector('#state details')")
    try shoot("state")
    try page.click("#tabs button[data-screen=inspector]")
    // The log redraws as records arrive: wait until it has caught up with
    // the last version, so that the click lands on a row that stays.
    try page.waitUntil(
      "document.body.dataset.version !== '' && document.querySelector('#records li')?.dataset.version === document.body.dataset.version"
    )
    try page.click("#records li[data-version=\"3\"]")
    try page.click("#state-at")
    try page.waitUntil("document.querySelector('#result-title') && document.querySelector('#workers-table')")
    try shoot("inspector")
    for path in written {
      let bytes = try #require(FileManager.default.contents(atPath: path))
      #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(path) is not a PNG")
      #expect(bytes.count > 10_000, "\(path) is \(bytes.count) bytes: an empty page?")
    }
  }

  /// The inspector opened at a past version: its action and change, who
  /// sent it, the state then, the difference from another version, what
  /// the state would be without it, the log filtered by a state path, and
  /// the workers.
  @Test func theInspectorOpensAtAPastVersion() throws {
    let setup = try Setup(arguments: ["--dice-roll", "0"])
    for _ in 0..<3 { _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: setup.daemon.socketPath) }
    let roll = try tcactl(["send", "dice.view.rollButtonTapped", "--wait"], socket: setup.daemon.socketPath)
    #expect(roll.status == 0, "\(roll.error)")
    let page = try setup.browser.open("http://127.0.0.1:\(setup.web.port)/#inspector/2")
    try page.waitUntil("document.querySelector('#selected-summary')")
    #expect(try page.text("#selected-version") == "2")
    #expect(try page.text("#selected-summary") == "counter.incrementButtonTapped")
    #expect(try page.text("#selected-patch").contains("replace /counter/count 2"))
    #expect(try page.text("#record-detail").contains("sent by tcactl send"))

    try page.click("#state-at")
    try page.waitUntil("document.querySelector('#result-title')?.textContent === 'The state at version 2'")
    #expect(try page.text("#inspector-result .leaf[data-path=\"/counter/count\"]") == "count: 2")

    try page.type("0", into: "#compare-with")
    try page.click("#compare")
    try page.waitUntil("document.querySelector('#result-title')?.textContent === 'From version 0 to version 2'")
    #expect(try page.text("#differences") == "/counter/count 0 → 2")

    try page.click("#what-if")
    try page.waitUntil(
      "document.querySelector('#result-title')?.textContent.includes('without the action of version 2')")
    #expect(try page.text("#what-if-patch").contains("replace /counter/count 2"))
    try page.type("counter.decrementButtonTapped", into: "#replace-with")
    try page.click("#what-if-replaced")
    try page.waitUntil(
      "document.querySelector('#result-title')?.textContent.includes('with counter.decrementButtonTapped')")
    #expect(try page.text("#what-if-patch").contains("replace /counter/count 1"))

    // The roll's answer is an action of the timer's effect, named as such.
    try page.type("dice", into: "#log-filter")
    try page.waitUntil("[...document.querySelectorAll('#records code')].every(c => c.textContent.startsWith('dice'))")
    let senders = try page.evaluate("[...document.querySelectorAll('#records .sender')].map(s => s.textContent)")
    #expect(senders.description.contains("an effect of version 4"), "\(senders)")
    try page.waitUntil("document.querySelectorAll('#workers-table tr[data-kind]').length === 3")
    #expect(try page.text("#effects-in-flight") == "0")
  }

  /// Served with a token: the page sends a person to sign in, and once the
  /// token is typed, shows the apps.
  @Test func withATokenAPersonSignsInFirst() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let token = "a-token-of-enough-length"
    try "\(token)\n".write(toFile: daemon.directory + "/token", atomically: true, encoding: .utf8)
    let web = try WebClientProcess(socket: daemon.socketPath, arguments: ["--token-file", daemon.directory + "/token"])
    let browser = try Browser(directory: daemon.directory)
    let page = try browser.open("http://127.0.0.1:\(web.port)/#counter")
    try page.waitUntil("location.pathname === '/login' && document.querySelector('#login')")
    try page.type("wrong-token-of-some-length", into: "#token")
    try page.click("#login button")
    try page.waitUntil("document.querySelector('#result').textContent.includes('not the token')")
    try page.type(token, into: "#token")
    try page.click("#login button")
    try page.waitUntil("location.pathname === '/' && document.querySelector('#screen .count')")
    try page.click("#screen button[aria-label=increment]")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '1'")
    #expect(try daemon.client().get(path: "/counter/count").value == .int(1))
  }

  /// tcaweb behind a real reverse proxy that terminates TLS (nginx, with a
  /// certificate the test makes), reached by the browser at its public
  /// origin: a person signs in and uses a store, and a request from another
  /// site's page changes nothing.
  @Test(.enabled(if: NginxProxy.isInstalled, "needs Debian's nginx and openssl (.ci/run installs them)"))
  func behindATLSProxyAPersonSignsInAndAForeignOriginIsRefused() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let token = "a-token-of-enough-length"
    try "\(token)\n".write(toFile: daemon.directory + "/token", atomically: true, encoding: .utf8)
    // The proxy's port is known only once it listens; tcaweb's upstream
    // port first, then the origin naming the proxy's.
    let upstream = try EtcdCluster.freePort()
    var proxy: NginxProxy?
    var web: WebClientProcess?
    for _ in 0..<3 where web == nil {
      let candidate = try NginxProxy(serverName: "shop.test", upstream: upstream)
      proxy = candidate
      web = try? WebClientProcess(
        socket: daemon.socketPath,
        arguments: [
          "--listen", "127.0.0.1:\(upstream)", "--token-file", daemon.directory + "/token", "--public-origin",
          "https://shop.test:\(candidate.port)",
        ])
    }
    let origin = "https://shop.test:\(try #require(proxy).port)"
    _ = try #require(web)
    let browser = try Browser(
      directory: daemon.directory,
      arguments: ["--ignore-certificate-errors", "--host-resolver-rules=MAP shop.test 127.0.0.1"])
    let page = try browser.open("\(origin)/#counter")
    try page.waitUntil("location.pathname === '/login' && document.querySelector('#login')")
    try page.type(token, into: "#token")
    try page.click("#login button")
    try page.waitUntil("location.pathname === '/' && document.querySelector('#screen .count')")
    #expect(try page.evaluate("location.origin") == .string(origin))
    #expect(try page.evaluate("document.cookie") == .string(""), "the token's cookie is HttpOnly")
    try page.click("#screen button[aria-label=increment]")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '1'")
    #expect(try daemon.client().get(path: "/counter/count").value == .int(1))

    // A request from another site's page, with the person's cookie, through
    // the proxy (sent over TLS by openssl, as that page's browser would send
    // it): refused, and nothing changes.
    let body = #"{"type":"send","path":"counter.incrementButtonTapped"}"#
    let answer = try #require(proxy).request(
      "POST /api/request HTTP/1.1\r\nHost: shop.test:\(try #require(proxy).port)\r\n"
        + "Origin: https://elsewhere.test\r\nContent-Type: application/json\r\n"
        + "Cookie: tcaweb_token=\(token)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
      serverName: "shop.test")
    #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
    #expect(answer.contains("may not change anything here"), "\(answer)")
    #expect(try daemon.client().get(path: "/counter/count").value == .int(1))
  }

  /// A letter in the inventory's quantity: the daemon refuses the value,
  /// and the page says why under the field, in words for a person, shows
  /// the quantity the state holds again, and leaves the rest as it was.
  @Test func aRefusedValueShowsUnderItsField() throws {
    let setup = try Setup()
    let page = try setup.open("inventory")
    try Self.collectErrors(page)
    try page.click("#add-item")
    try page.type("Hammer", into: ".item-form .item-name")
    try waitUntil("the form holds the name typed") {
      try setup.get("inventory.destination.addItem.item.name") == .string("Hammer")
    }
    try page.type("11x", into: ".item-form .item-quantity")
    let quantityError = "document.querySelector('.item-form .item-quantity').closest('label').nextElementSibling"
    try page.waitUntil("\(quantityError).textContent === 'Quantity must be a whole number.'")
    try page.waitUntil("document.querySelector('.item-form .item-quantity').value === '1'")
    #expect(try page.text("#result") == "")
    #expect(try page.evaluate("document.querySelector('.item-form .item-name').value") == .string("Hammer"))
    #expect(try setup.get("inventory.destination.addItem.item.quantity") == .int(1))
    // A whole number is taken, and the message goes.
    try page.type("12", into: ".item-form .item-quantity")
    try page.waitUntil("\(quantityError).textContent === ''")
    try waitUntil("the form holds the quantity typed") {
      try setup.get("inventory.destination.addItem.item.quantity") == .int(12)
    }
    #expect(try Self.pageErrors(page) == .array([]))
  }

  /// A paste past the request limits, tcaweb's (100 KB) and the daemon's
  /// (20 KB): refused under the field, which shows the state's value again.
  @Test func textPastTheRequestLimitIsRefusedUnderItsField() throws {
    let setup = try Setup()
    let page = try setup.open("settings")
    try Self.collectErrors(page)
    try page.click("#open-settings")
    for size in [100_000, 20_000] {
      try page.type(String(repeating: "a", count: size), into: "#display-name")
      try page.waitUntil("document.querySelector('#display-name-error').textContent === 'Display name is too long.'")
      try page.waitUntil("document.querySelector('#display-name').value === 'Friend'")
      try page.type("Ada", into: "#display-name")
      try page.waitUntil("document.querySelector('#display-name-error').textContent === ''")
      try waitUntil("the draft holds the name typed") {
        try setup.get("parent.settings.draft.displayName") == .string("Ada")
      }
      try page.type("Friend", into: "#display-name")
      try waitUntil("the draft holds the name typed") {
        try setup.get("parent.settings.draft.displayName") == .string("Friend")
      }
    }
    #expect(try page.text("#result") == "")
    #expect(try Self.pageErrors(page) == .array([]))
  }

  /// A click while the daemon is down waits, visibly, and is sent once it
  /// is back, once; then the page says nothing more of the outage.
  @Test func aClickWhileTheDaemonRestartsIsSentOnceItIsBack() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--fsync", "always"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    let browser = try Browser(directory: daemon.directory)
    let page = try browser.open("http://127.0.0.1:\(web.port)/#counter")
    try page.waitUntil("document.querySelector('#screen .count')")
    try page.click("#screen button[aria-label=increment]")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '1'")
    kill(daemon.pid, SIGKILL)
    daemon.process.waitUntilExit()
    try page.waitUntil("document.querySelector('#connection').dataset.state === 'reconnecting'")
    try page.waitUntil("!document.querySelector('#outage').hidden")
    try page.click("#screen button[aria-label=increment]")
    try page.waitUntil("document.body.dataset.held === 'true'")
    let outage = try page.text("#outage")
    #expect(outage.contains("will be made as soon as it is back"), "\(outage)")
    #expect(!outage.contains("/") && !outage.contains("storedaemon") && !outage.contains("sock"), "\(outage)")
    #expect(try page.text("#screen .count") == "1")

    let restarted = try DaemonProcess(reusing: daemon, arguments: api.daemonArguments + ["--fsync", "always"])
    try page.waitUntil("document.querySelector('#screen .count').textContent === '2'")
    try page.waitUntil(
      "document.body.dataset.pending === '0' && document.querySelector('#outage').hidden"
        + " && document.querySelector('#connection').dataset.state === 'live'")
    #expect(try page.text("#result") == "")
    #expect(try restarted.client().get(path: "/counter/count").value == .int(2))
    let increments = try restarted.client().log(since: nil, last: 1000).records.filter {
      $0.summary == "counter.incrementButtonTapped"
    }
    #expect(increments.count == 2)
  }

  /// While an alert is shown, the rest of the page takes no click and no
  /// focus; Escape is its cancel button.
  @Test func anOpenAlertIsModal() throws {
    let setup = try Setup()
    let page = try setup.open("store")
    try page.click(".row[data-product=\"1\"] .plus")
    try page.waitUntil("document.querySelectorAll('.cart li').length === 1")
    try page.click("#pay")
    try page.waitUntil("document.querySelector('dialog.alert')?.matches(':modal')")
    // A click on what the alert covers lands nowhere.
    try page.click(whereDrawn: ".row[data-product=\"1\"] .plus")
    try page.click(whereDrawn: "#tabs button[data-screen=counter]")
    #expect(try page.evaluate("document.querySelector('#screen [data-screen=store]') !== null") == .bool(true))
    // The keyboard's focus stays in the alert.
    for _ in 0..<6 {
      try page.press("Tab")
      #expect(try page.evaluate("document.activeElement.closest('dialog.alert') !== null") == .bool(true))
    }
    try page.evaluate("document.querySelector('#tabs button').focus()")
    #expect(try page.evaluate("document.activeElement.closest('dialog.alert') !== null") == .bool(true))
    try page.press("Escape")
    try page.waitUntil("document.querySelector('dialog.alert') === null")
    #expect(try setup.get("cart.alert") == .null)
    // Sends leave in order: one made behind the alert would be logged
    // before the cancel.
    let logged = try setup.loggedActions()
    #expect(logged.suffix(2) == ["cart.payButtonTapped", "cart.alert.presented.cancelPurchase"], "\(logged)")
    #expect(logged.filter { $0.contains("plusButtonTapped") }.count == 1, "\(logged)")
    #expect(try page.text(".row[data-product=\"1\"] .quantity") == "1")
  }

  /// Opening or reloading a screen sends nothing; a person's click on a
  /// tab sends `tabSelected`, and a page opened without a screen shows
  /// the tab the app has selected.
  @Test func openingAPageChangesNoState() throws {
    let setup = try Setup()
    let page = try setup.open("store")
    for load in 0..<2 {
      if load > 0 { try page.reload() }
      try page.waitUntil(
        "document.querySelector('#screen [data-screen=store] #load-catalog') && document.body.dataset.pending === '0'")
      #expect(try setup.daemon.client().get().version == 0)
    }
    // Each in a tab of its own, closed after (a browser keeps at most six
    // connections to a server, and each page holds its streams open).
    for screen in ["state", "inspector", "bmi"] {
      let other = try setup.browser.open("http://127.0.0.1:\(setup.web.port)/#\(screen)")
      try other.waitUntil("document.body.dataset.version !== '' && document.body.dataset.pending === '0'")
      try other.close()
    }
    #expect(try setup.daemon.client().get().version == 0)
    // Without a screen in the address, the app's selected tab.
    let plain = try setup.browser.open("http://127.0.0.1:\(setup.web.port)/")
    try plain.waitUntil("document.querySelector('#screen [data-screen=counter]') && location.hash === '#counter'")

    try plain.click("#tabs button[data-screen=store]")
    try plain.waitUntil("document.querySelector('.products[data-status=loaded]')")
    #expect(try setup.get("selectedTab") == .string("products"))
    #expect(try setup.loggedActions().first == "tabSelected products")
    let version = try setup.daemon.client().get().version
    let again = try setup.browser.open("http://127.0.0.1:\(setup.web.port)/")
    try again.waitUntil(
      "document.querySelector('#screen [data-screen=store]') && location.hash === '#store'"
        + " && document.body.dataset.pending === '0'")
    #expect(try setup.daemon.client().get().version == version)
  }

  /// The fact about 3 is not shown beside the failure of the fact about 4.
  @Test func aFactFromAnEarlierCountIsNotShownBesideAFailure() throws {
    let setup = try Setup()
    let page = try setup.open("counter")
    for expected in 1...3 {
      try page.click("#screen button[aria-label=increment]")
      try page.waitUntil("document.querySelector('#screen .count').textContent === '\(expected)'")
    }
    try page.click("#screen button[data-action=\"counter.numberFactButtonTapped\"]")
    try page.waitUntil("document.querySelector('#screen .fact')")
    #expect(try page.text("#screen .fact") == FakeSeedAPI.numberFact(about: 3))
    setup.api.setFault(.status(500), for: .numberFact)
    try page.click("#screen button[aria-label=increment]")
    try page.waitUntil("document.querySelector('#screen .count').textContent === '4'")
    try page.click("#screen button[data-action=\"counter.numberFactButtonTapped\"]")
    try page.waitUntil("document.querySelector('#screen .counter .error')")
    #expect(try page.evaluate("document.querySelector('#screen .fact')") == .null)
    guard case .string(let error) = try setup.get("counter.errorMessage") else {
      Issue.record("no error in the state")
      return
    }
    #expect(try page.text("#screen .counter .error") == error)
    // The state holds no fact since the one about 4 was asked for.
    #expect(try setup.get("counter.numberFact") == .null)
  }

  /// The words the apps' state uses for where things stand (`idle`,
  /// `loaded`, …) are not what a person reads, on any seed screen, before
  /// or after their loads.
  @Test func stateWordsAreNotShownOnTheSeedScreens() throws {
    let setup = try Setup(arguments: ["--dice-roll", "0"])
    let page = try setup.open("counter")
    let stateWords = [
      "idle", "bundled", "loading", "loaded", "failed", "sending", "placed", "saving", "saved", "none", "null",
      "undefined", "true", "false", "system", "light", "dark", "live", "reconnecting", "connecting",
    ]
    let find =
      "(() => { const words = new Set(\(BrowserPage.quoted(stateWords.joined(separator: " "))).split(' ')); const found = [];"
      + " for (const root of [document.querySelector('#screen'), document.querySelector('header')]) {"
      + " const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);"
      + " while (walker.nextNode()) { const text = walker.currentNode.textContent.trim();"
      + " if (words.has(text)) found.push(text);"
      + " for (const word of text.split(/[^A-Za-z]+/)) if (['idle', 'bundled', 'loaded'].includes(word)) found.push(text); } }"
      + " return found; })()"
    func check(_ screen: String) throws {
      try page.click("#tabs button[data-screen=\(screen)]")
      try page.waitUntil("document.querySelector('#screen [data-screen=\(screen)]')")
      try page.waitUntil("document.body.dataset.pending === '0'")
      #expect(try page.evaluate(find) == .array([]), "\(screen)")
    }
    #expect(try page.evaluate(find) == .array([]), "counter as opened")
    try page.click("#screen button[data-action=\"counter.numberFactButtonTapped\"]")
    try page.waitUntil("document.querySelector('#screen .fact')")
    try check("counter")
    try check("dice")
    try page.click("#roll")
    try page.waitUntil("document.querySelector('#roll-count').textContent === '1'")
    try check("dice")
    try check("store")
    try page.waitUntil("document.querySelector('.products[data-status=loaded]')")
    try page.click("#load-profile")
    try page.waitUntil("document.querySelector('#profile')")
    try check("store")
    try check("bmi")
    try check("search")
    try check("settings")
    try page.click("#open-settings")
    try page.waitUntil("document.querySelector('#settings')")
    try check("settings")
    #expect(
      try page.evaluate("[...document.querySelectorAll('#theme option')].map(o => o.textContent)")
        == .array([.string("As the system"), .string("Light"), .string("Dark")]))
    try check("inventory")
  }

  /// Each cart line shows its own price, unit price times quantity, written
  /// as the store writes its prices.
  @Test func aCartLineShowsItsOwnPrice() throws {
    let setup = try Setup()
    let page = try setup.open("store")
    try page.click(".row[data-product=\"1\"] .plus")
    try page.click(".row[data-product=\"1\"] .plus")
    try page.click(".row[data-product=\"3\"] .plus")
    try page.waitUntil(
      "document.querySelectorAll('.cart li').length === 2"
        + " && document.querySelector('.row[data-product=\"1\"] .quantity').textContent === '2'")
    guard case .array(let items) = try setup.get("cart.items") else {
      Issue.record("no items in the cart")
      return
    }
    #expect(items.count == 2)
    for item in items {
      guard case .int(let id)? = item[path: "product", "id"], case .int(let quantity)? = item[path: "quantity"] else {
        Issue.record("an item without an id or a quantity: \(item)")
        continue
      }
      let price: Double
      switch item[path: "product", "price"] {
      case .double(let value)?: price = value
      case .int(let value)?: price = Double(value)
      default:
        Issue.record("no price in \(item)")
        continue
      }
      let expected = StorePriceFormat.dollars(price * Double(quantity))
      #expect(try page.text(".cart li[data-product=\"\(id)\"] .subtotal") == expected)
      #expect(try page.text(".row[data-product=\"\(id)\"] .price") == StorePriceFormat.dollars(price))
    }
  }
}
