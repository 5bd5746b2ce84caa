import Foundation
import Glibc
import JSON
import TestSupport
import Testing
import Wire

/// `tcaweb` between a real daemon and HTTP clients: what a page sends is
/// the daemon's, what the daemon publishes reaches the page as events, and
/// what the daemon or the web client refuses is refused with its reason.
@Suite(.ownThreads) struct WebClientTests {
  /// One server-sent event as read off the stream.
  struct Event: Equatable {
    var id: String?
    var name: String
    var data: String
    var json: JSONValue? { try? JSONParser.parse(Array(data.utf8)) }
  }

  /// The events in what a stream has sent so far (whole events only).
  static func events(in text: String) -> [Event] {
    text.components(separatedBy: "\n\n").dropLast().compactMap { block in
      var event = Event(id: nil, name: "message", data: "")
      var isComment = true
      for line in block.split(separator: "\n") {
        if line.hasPrefix(":") { continue }
        isComment = false
        if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
        if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
        if line.hasPrefix("data: ") { event.data += (event.data.isEmpty ? "" : "\n") + line.dropFirst(6) }
      }
      return isComment ? nil : event
    }
  }

  /// Reads `stream` until its events satisfy `done`; returns them all.
  static func read(_ stream: RawHTTPClient, until done: ([Event]) -> Bool) throws -> [Event] {
    events(in: try stream.readStream { done(events(in: $0)) })
  }

  @Test func aSendFromThePageIsAppliedAndItsDiffReachesTheStream() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    let stream = try web.events()
    let opening = try Self.read(stream) { $0.contains { $0.name == "snapshot" } }
    #expect(opening.first?.name == "welcome")
    let snapshot = try #require(opening.first { $0.name == "snapshot" })
    #expect(snapshot.id == "0")
    #expect(snapshot.json?[path: "state", "counter", "count"] == .int(0))

    let ack = try web.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#)
    #expect(ack.status == 200)
    #expect(try JSONParser.parse(ack.body)[path: "version"] == .int(1))
    let all = try Self.read(stream) { $0.contains { $0.name == "diff" } }
    let diff = try #require(all.first { $0.name == "diff" })
    #expect(diff.id == "1")
    #expect(diff.json?[path: "summary"] == .string("counter.incrementButtonTapped"))
    #expect(diff.data.contains(#"{"op":"replace","path":"/counter/count","value":1}"#))

    // Reads go through too, and say what tcactl says.
    let state = try web.post(#"{"type":"get","path":"/counter/count"}"#)
    #expect(try JSONParser.parse(state.body)[path: "state"] == .int(1))
    #expect(try tcactl(["get", "counter.count"], socket: daemon.socketPath).output == "1\n")
  }

  @Test func thePageGetsTheErrorsTcactlGets() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    let unknown = try web.post(#"{"type":"send","path":"counter.incremnt"}"#)
    #expect(unknown.status == 400)
    #expect(try JSONParser.parse(unknown.body)[path: "code"] == .string("invalid_action"))
    let fromTcactl = try tcactl(["send", "counter.incremnt"], socket: daemon.socketPath)
    guard case .string(let message)? = try JSONParser.parse(unknown.body)[path: "message"] else {
      Issue.record("no message in \(unknown.text)")
      return
    }
    #expect(fromTcactl.error.contains(message))

    // An effect's own action is not the page's to send.
    let effectsOwn = try web.post(#"{"type":"send","action":{"counter":{"numberFactResponse":{"success":"x"}}}}"#)
    #expect(effectsOwn.status == 400)
    #expect(try JSONParser.parse(effectsOwn.body)[path: "code"] == .string("invalid_action"))

    let notJSON = try web.post(#"{"type":"send","#)
    #expect(notJSON.status == 400)
    #expect(try JSONParser.parse(notJSON.body)[path: "code"] == .string("invalid_json"))
    let subscribe = try web.post(#"{"type":"subscribe"}"#)
    #expect(subscribe.status == 400)
    #expect(try JSONParser.parse(subscribe.body)[path: "code"] == .string("unknown_type"))
    #expect(try daemon.client().get(path: "/counter/count").value == .int(0))
  }

  /// A daemon that cannot be reached is 503: nothing was sent, and the
  /// page may send it again once the daemon is back (docs/WEB.md, "While
  /// the daemon is away").
  @Test func aDaemonThatCannotBeReachedIs503AndNothingIsSent() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "always"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    let send = #"{"type":"send","path":"counter.incrementButtonTapped"}"#
    #expect(try web.post(send).status == 200)
    kill(daemon.pid, SIGKILL)
    daemon.process.waitUntilExit()
    let away = try web.post(send)
    #expect(away.status == 503)
    #expect(try JSONParser.parse(away.body)[path: "code"] == .string("internal"))
    let restarted = try DaemonProcess(reusing: daemon, arguments: ["--fsync", "always"])
    #expect(try restarted.client().get(path: "/counter/count").value == .int(1))
    #expect(try web.post(send).status == 200)
    #expect(try restarted.client().get(path: "/counter/count").value == .int(2))
  }

  /// Behind a proxy (`--public-origin`): the public host passes the Host
  /// check, a change must come from the public origin, scheme and all, the
  /// sign-in's cookie is `Secure` for HTTPS, and a token is required.
  @Test func behindAProxyThePublicOriginIsThisServersOwn() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let token = "a-token-of-enough-length"
    try "\(token)\n".write(toFile: daemon.directory + "/token", atomically: true, encoding: .utf8)
    let web = try WebClientProcess(
      socket: daemon.socketPath,
      arguments: ["--token-file", daemon.directory + "/token", "--public-origin", "https://Shop.Example:443/"])
    let json = ["Content-Type": "application/json"]
    let publicHost = ["Host": "shop.example"]
    let login = try web.request(
      "POST", "/login", headers: json.merging(publicHost) { $1 }.merging(["Origin": "https://shop.example"]) { $1 },
      body: "\"\(token)\"")
    #expect(login.status == 200)
    #expect(login.header("Set-Cookie")?.hasSuffix("; Secure") == true, "\(login.headers)")
    let cookie = ["Cookie": "tcaweb_token=\(token)"]
    let send = #"{"type":"send","path":"counter.incrementButtonTapped"}"#
    let fromPublic = json.merging(publicHost) { $1 }.merging(cookie) { $1 }
    #expect(try web.post(send, headers: fromPublic.merging(["Origin": "https://shop.example"]) { $1 }).status == 200)
    for origin in ["http://shop.example", "https://elsewhere.example"] {
      #expect(try web.post(send, headers: fromPublic.merging(["Origin": origin]) { $1 }).status == 403, "\(origin)")
    }
    #expect(try web.request("GET", "/", headers: ["Host": "elsewhere.example"].merging(cookie) { $1 }).status == 403)
    #expect(try daemon.client().get(path: "/counter/count").value == .int(1))

    let noToken = try runProduct("tcaweb", ["--socket", daemon.socketPath, "--public-origin", "https://shop.example"])
    #expect(noToken.status == 64)
    #expect(noToken.error.contains("--public-origin serves the pages to whoever reaches the proxy; give --token-file"))
    let notAnOrigin = try runProduct("tcaweb", ["--public-origin", "https://shop.example/path", "--token-file", "/x"])
    #expect(notAnOrigin.status == 64)
    #expect(notAnOrigin.error.contains("--public-origin"))
  }

  @Test func crossSiteRequestsForeignHostsAndWrongMethodsAreRefused() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    let send = #"{"type":"send","path":"counter.incrementButtonTapped"}"#
    let crossSite = try web.post(send, headers: ["Origin": "http://attacker.example"])
    #expect(crossSite.status == 403)
    let sameSite = try web.post(send, headers: ["Origin": "http://127.0.0.1:\(web.port)"])
    #expect(sameSite.status == 200)
    let rebound = try web.post(send, headers: ["Host": "attacker.example:\(web.port)"])
    #expect(rebound.status == 403)
    let form = try web.post(send, headers: ["Content-Type": "text/plain"])
    #expect(form.status == 415)
    #expect(try web.request("GET", "/api/request").status == 405)
    #expect(try web.request("DELETE", "/").status == 405)
    #expect(try web.request("GET", "/../../etc/passwd").status == 404)
    #expect(try web.request("GET", "/").status == 200)
    #expect(try daemon.client().get(path: "/counter/count").value == .int(1))
  }

  /// The page's stream resumes after the last version it saw, across a
  /// restart of the daemon, with every change and no snapshot.
  @Test func aStreamResumesAfterTheDaemonRestartsWithNothingLost() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "always"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    _ = try web.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#)
    let first = try web.events()
    let opening = try Self.read(first) { $0.contains { $0.name == "snapshot" } }
    guard case .string(let epoch)? = opening.first(where: { $0.name == "welcome" })?.json?[path: "epoch"] else {
      Issue.record("no epoch in the welcome: \(opening)")
      return
    }
    let seen = try #require(opening.first { $0.name == "snapshot" }?.id)
    #expect(seen == "1")
    first.close()
    for _ in 0..<2 { _ = try web.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#) }
    kill(daemon.pid, SIGKILL)
    daemon.process.waitUntilExit()
    let restarted = try DaemonProcess(reusing: daemon, arguments: ["--fsync", "always"])

    let resumed = try web.events("/events?epoch=\(epoch)", headers: ["Last-Event-ID": seen])
    let events = try Self.read(resumed) { $0.filter { $0.name == "diff" }.count == 2 }
    #expect(events.map(\.name) == ["welcome", "ack", "diff", "diff"])
    #expect(events.filter { $0.name == "diff" }.map(\.id) == ["2", "3"])
    #expect(try restarted.client().get(path: "/counter/count").value == .int(3))
  }

  @Test func withATokenEveryRequestNeedsIt() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let tokenFile = daemon.directory + "/token"
    let token = "a-token-of-enough-length"
    try "\(token)\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
    let web = try WebClientProcess(socket: daemon.socketPath, arguments: ["--token-file", tokenFile])
    let send = #"{"type":"send","path":"counter.incrementButtonTapped"}"#
    #expect(try web.post(send).status == 401)
    let page = try web.request("GET", "/")
    #expect(page.status == 303)
    #expect(page.header("Location") == "/login")
    #expect(try web.request("GET", "/login").status == 200)
    // The sign-in page's script and style hold no state; the streams do.
    #expect(try web.request("GET", "/app.js").status == 200)
    #expect(try web.request("GET", "/events").status == 401)
    #expect(try web.request("GET", "/events/log").status == 401)
    let json = ["Content-Type": "application/json"]
    #expect(try web.request("POST", "/login", headers: json, body: #""wrong""#).status == 401)
    let login = try web.request("POST", "/login", headers: json, body: "\"\(token)\"")
    #expect(login.status == 200)
    let cookie = try #require(login.header("Set-Cookie"))
    #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
    let pair = try #require(cookie.split(separator: ";").first).description
    #expect(try web.post(send, headers: ["Cookie": pair]).status == 200)
    #expect(try web.post(send, headers: ["Authorization": "Bearer \(token)"]).status == 200)
    #expect(try daemon.client().get(path: "/counter/count").value == .int(2))
  }

  @Test func servingBeyondLoopbackWithoutATokenIsRefused() throws {
    let run = try runProduct("tcaweb", ["--listen", "0.0.0.0:0", "--socket", "/nonexistent.sock"])
    #expect(run.status == 64)
    #expect(run.error.contains("give --token-file FILE"))
    let bad = try runProduct("tcaweb", ["--listen", "localhost"])
    #expect(bad.status == 64)
    #expect(bad.error.contains("--listen takes HOST:PORT"))
  }

  /// The log as events: the last records, then each new one, resumed after
  /// the last version seen.
  @Test func theLogStreamsRecordsAndResumes() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let web = try WebClientProcess(socket: daemon.socketPath)
    for _ in 0..<3 { _ = try web.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#) }
    let stream = try web.events("/events/log?last=2")
    let old = try Self.read(stream) { $0.count == 2 }
    #expect(old.map(\.id) == ["2", "3"])
    #expect(old.allSatisfy { $0.name == "record" })
    #expect(old.first?.json?[path: "origin", "client"] == .string("tcaweb"))
    _ = try web.post(#"{"type":"send","path":"counter.decrementButtonTapped"}"#)
    let live = try Self.read(stream) { $0.count == 3 }
    #expect(live.last?.id == "4")
    #expect(live.last?.json?[path: "summary"] == .string("counter.decrementButtonTapped"))
    stream.close()
    let resumed = try web.events("/events/log", headers: ["Last-Event-ID": "3"])
    #expect(try Self.read(resumed) { $0.count == 1 }.map(\.id) == ["4"])
    #expect(try web.request("GET", "/events/log?last=0").status == 400)
  }
}
