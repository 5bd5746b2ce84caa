import Foundation
import Glibc
import JSON

/// A real browser for a test: Debian's `chromium`, headless, driven through
/// the Chrome DevTools Protocol over the pipe `--remote-debugging-pipe`
/// opens (commands on its descriptor 3, answers and events on 4, each
/// message JSON ended by a NUL byte). Killed when the test lets go of it.
final class Browser {
  private let process: SpawnedProcess
  private let commands: Int32
  private let answers: Int32
  private var buffer: [UInt8] = []
  private var nextID = 0
  let profile: String

  /// Where Debian installs it; `.ci/run` installs the package.
  static let executable = "/usr/bin/chromium"

  /// Whether the browser is installed.
  static var isInstalled: Bool { access(executable, X_OK) == 0 }

  /// A browser whose profile is in `directory`, with `arguments` beside
  /// the usual ones (e.g. `--host-resolver-rules=…`).
  init(directory: String, width: Int = 1280, height: Int = 900, arguments: [String] = []) throws {
    profile = directory + "/chromium-profile"
    var toBrowser: [Int32] = [-1, -1]
    var fromBrowser: [Int32] = [-1, -1]
    guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw DaemonTestError("pipe: errno \(errno)") }
    // Above 4, so that making them the child's 3 and 4 clobbers neither.
    let (childReads, childWrites) = (Self.high(toBrowser[0]), Self.high(fromBrowser[1]))
    commands = Self.high(toBrowser[1])
    answers = Self.high(fromBrowser[0])
    defer {
      close(childReads)
      close(childWrites)
    }
    process = try SpawnedProcess(
      [
        Self.executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--remote-debugging-pipe", "--user-data-dir=\(profile)", "--no-first-run", "--no-default-browser-check",
        "--window-size=\(width),\(height)",
      ] + arguments + ["about:blank"], output: directory + "/chromium.log", descriptor3: childReads,
      descriptor4: childWrites)
  }

  deinit {
    close(commands)
    close(answers)
    _ = process.stop(SIGKILL)
  }

  /// A new tab showing `url`, once it has loaded.
  func open(_ url: String) throws -> BrowserPage {
    let target = try command("Target.createTarget", ["url": .string("about:blank")])
    guard case .string(let targetID)? = target["targetId"] else { throw DaemonTestError("no target in \(target)") }
    let attached = try command("Target.attachToTarget", ["targetId": .string(targetID), "flatten": .bool(true)])
    guard case .string(let session)? = attached["sessionId"] else { throw DaemonTestError("no session in \(attached)") }
    let page = BrowserPage(browser: self, session: session, target: targetID)
    try page.navigate(to: url)
    return page
  }

  /// Sends `method` with `params` (to the page of `session`, if given) and
  /// returns its result, skipping the events that come meanwhile.
  func command(_ method: String, _ params: JSONObject = [:], session: String? = nil) throws -> JSONObject {
    nextID += 1
    var message: JSONObject = ["id": .int(nextID), "method": .string(method), "params": .object(params)]
    if let session { message["sessionId"] = .string(session) }
    let bytes = CanonicalJSON.encode(.object(message)) + [0]
    guard bytes.withUnsafeBytes({ write(commands, $0.baseAddress, $0.count) }) == bytes.count else {
      throw DaemonTestError("the browser stopped taking commands (errno \(errno)); see \(profile)/../chromium.log")
    }
    let deadline = ContinuousClock.now + eventTimeout
    while true {
      let answer = try nextMessage(until: deadline)
      guard case .int(nextID)? = answer["id"] else { continue }
      if case .object(let error)? = answer["error"] { throw DaemonTestError("\(method) failed: \(error)") }
      guard case .object(let result)? = answer["result"] else { return [:] }
      return result
    }
  }

  private func nextMessage(until deadline: ContinuousClock.Instant) throws -> JSONObject {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let message = try JSONParser.parse(buffer[..<end])
        buffer.removeFirst(end + 1)
        guard case .object(let object) = message else { continue }
        return object
      }
      var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
      let left = deadline - .now
      guard left > .zero else { throw DaemonTestError("the browser did not answer within \(eventTimeout)") }
      guard poll(&poller, 1, Int32(clamping: left.components.seconds * 1000 + 1)) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
      guard count > 0 else { throw DaemonTestError("the browser exited; see its log beside \(profile)") }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  private static func high(_ descriptor: Int32) -> Int32 {
    let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
    close(descriptor)
    return moved
  }
}

/// One tab of a ``Browser``: what a person does with a page, and what a
/// test reads off it.
final class BrowserPage {
  let browser: Browser
  let session: String
  let target: String

  init(browser: Browser, session: String, target: String) {
    self.browser = browser
    self.session = session
    self.target = target
  }

  /// Closes the tab, and with it its connections (a browser keeps at most
  /// six to one server).
  func close() throws {
    _ = try browser.command("Target.closeTarget", ["targetId": .string(target)])
  }

  private func command(_ method: String, _ params: JSONObject = [:]) throws -> JSONObject {
    try browser.command(method, params, session: session)
  }

  /// Loads `url` and waits until its document and scripts have run.
  func navigate(to url: String) throws {
    _ = try command("Page.navigate", ["url": .string(url)])
    try waitUntil("document.readyState === 'complete'")
  }

  /// Loads the page again, as the browser's reload button does, and waits
  /// until the new document and its scripts have run.
  func reload() throws {
    try evaluate("window.beforeReload = true")
    _ = try command("Page.reload")
    try waitUntil("window.beforeReload === undefined && document.readyState === 'complete'")
  }

  /// The value of the JavaScript `expression` in the page (a promise is
  /// awaited), as JSON.
  @discardableResult
  func evaluate(_ expression: String) throws -> JSONValue {
    let result = try command(
      "Runtime.evaluate",
      ["expression": .string(expression), "returnByValue": .bool(true), "awaitPromise": .bool(true)])
    if case .object(let exception)? = result["exceptionDetails"] {
      throw DaemonTestError("the page threw evaluating \(expression): \(exception)")
    }
    guard case .object(let value)? = result["result"] else { return .null }
    return value["value"] ?? .null
  }

  /// Waits until `condition`, a JavaScript expression, is true in the page.
  /// A navigation under way (a redirect, a form's submit) may end an
  /// evaluation with "Inspected target navigated or closed": the wait goes
  /// on in the page that loads.
  func waitUntil(_ condition: String, timeout: Duration = eventTimeout) throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      do {
        if try evaluate("Boolean(\(condition))") == .bool(true) { return }
      } catch let error as DaemonTestError where error.description.contains("Inspected target navigated or closed") {
        // Evaluated again once the next page is there.
      }
      usleep(20_000)
    }
    throw DaemonTestError("timed out after \(timeout) waiting in the page until \(condition)")
  }

  /// The text of the first element `selector` finds, waiting for one.
  func text(_ selector: String) throws -> String {
    try waitUntil("document.querySelector(\(Self.quoted(selector)))")
    guard case .string(let text) = try evaluate("document.querySelector(\(Self.quoted(selector))).textContent")
    else { return "" }
    return text
  }

  /// Clicks the middle of the first element `selector` finds, as a mouse
  /// would, once it is there, enabled, and on top at that point (not
  /// covered, nor moved by a redraw since it was measured).
  func click(_ selector: String) throws {
    let element = "document.querySelector(\(Self.quoted(selector)))"
    try waitUntil("\(element) && !\(element).disabled")
    let measure =
      "(() => { const e = \(element); if (!e || e.disabled) return null; e.scrollIntoView({block: 'center'});"
      + " const r = e.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2;"
      + " const top = document.elementFromPoint(x, y); return top && e.contains(top) ? [x, y] : null; })()"
    var center = try evaluate(measure)
    let deadline = ContinuousClock.now + eventTimeout
    while center == .null && ContinuousClock.now < deadline {
      usleep(20_000)
      center = try evaluate(measure)
    }
    guard case .array(let point) = center, point.count == 2 else {
      throw DaemonTestError("\(selector) was not on top where it is drawn within \(eventTimeout)")
    }
    for type in ["mousePressed", "mouseReleased"] {
      _ = try command(
        "Input.dispatchMouseEvent",
        ["type": .string(type), "x": point[0], "y": point[1], "button": .string("left"), "clickCount": .int(1)])
    }
  }

  /// Presses the mouse where the first element `selector` finds is drawn,
  /// whatever is on top there (a modal dialog's backdrop, say), as a person
  /// clicking at that spot would.
  func click(whereDrawn selector: String) throws {
    try waitUntil("document.querySelector(\(Self.quoted(selector)))")
    let measure =
      "(() => { const r = document.querySelector(\(Self.quoted(selector))).getBoundingClientRect();"
      + " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
    guard case .array(let point) = try evaluate(measure), point.count == 2 else {
      throw DaemonTestError("\(selector) has no place on the page")
    }
    for type in ["mousePressed", "mouseReleased"] {
      _ = try command(
        "Input.dispatchMouseEvent",
        ["type": .string(type), "x": point[0], "y": point[1], "button": .string("left"), "clickCount": .int(1)])
    }
  }

  /// Presses and releases `key` (`Tab` or `Escape`), as a keyboard would,
  /// in the page's focused element.
  func press(_ key: String) throws {
    let codes = ["Tab": 9, "Escape": 27]
    guard let code = codes[key] else { throw DaemonTestError("no key code for \(key)") }
    for type in ["rawKeyDown", "keyUp"] {
      _ = try command(
        "Input.dispatchKeyEvent",
        [
          "type": .string(type), "key": .string(key), "code": .string(key), "windowsVirtualKeyCode": .int(code),
          "nativeVirtualKeyCode": .int(code),
        ])
    }
  }

  /// Clicks into the field `selector`, selects what it holds and types
  /// `text` in its place, as a person would.
  func type(_ text: String, into selector: String) throws {
    try click(selector)
    try evaluate("document.querySelector(\(Self.quoted(selector))).select()")
    _ = try command("Input.insertText", ["text": .string(text)])
  }

  /// Types one character into the focused field, as a key press would.
  func type(character: Character) throws {
    _ = try command("Input.insertText", ["text": .string(String(character))])
  }

  /// A PNG of what the page shows, written to `path`.
  func screenshot(to path: String) throws {
    let shot = try command("Page.captureScreenshot", ["format": .string("png")])
    guard case .string(let base64)? = shot["data"], let data = Data(base64Encoded: base64) else {
      throw DaemonTestError("no screenshot data")
    }
    try data.write(to: URL(fileURLWithPath: path))
  }

  /// `text` as a JavaScript string literal.
  static func quoted(_ text: String) -> String {
    String(decoding: CanonicalJSON.encode(.string(text)), as: UTF8.self)
  }
}
