import ComposableCore
import Dispatch
import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing
import Wire

/// The network worker as a real process against a real loopback HTTP/1.1
/// server (TestSupport's `TestHTTPServer`), which records what arrived.
@Suite(.ownThreads) struct HTTPExchangeTests {
  /// Any status is a response; what a 404 or a 500 means is the feature's call.
  @Test(arguments: [200, 201, 204, 404, 500, 503])
  func everyStatusComesBackAsAResponse(_ status: Int) throws {
    let directory = try TemporaryDirectory()
    let server = try TestHTTPServer { _ in
      status == 204 ? TestHTTPResponse(status: 204) : .text("status \(status)", status: status)
    }
    let worker = try SpawnedWorker(.network, in: directory)
    guard case .http(let response) = try worker.perform(.http(.get(server.baseURL + "/status")), id: 1) else {
      Issue.record("no response for \(status)")
      return
    }
    #expect(response.status == status)
    #expect(response.body == (status == 204 ? Data() : Data("status \(status)".utf8)))
  }

  @Test func headersAndBodyMakeTheRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let server = try TestHTTPServer { request in
      TestHTTPResponse(
        status: 200,
        headers: [
          HTTPHeader("Content-Type", "application/json"),
          HTTPHeader("X-Echo", request.header("X-Request-Id") ?? "none"),
        ],
        body: Data(#"{"ok":true}"#.utf8))
    }
    let worker = try SpawnedWorker(.network, in: directory)
    let request = HTTPRequest(
      method: "GET", url: server.baseURL + "/products?limit=5&q=red%20shoes",
      headers: [HTTPHeader("X-Request-Id", "42"), HTTPHeader("Accept", "application/json")])
    guard case .http(let response) = try worker.perform(.http(request), id: 1) else {
      Issue.record("no response")
      return
    }
    let received = try #require(server.requests.first)
    #expect(received.method == "GET")
    #expect(received.path == "/products")
    #expect(received.query("limit") == "5" && received.query("q") == "red shoes")
    #expect(received.header("X-Request-Id") == "42")
    #expect(received.header("Accept") == "application/json")
    #expect(response.status == 200)
    #expect(response.body == Data(#"{"ok":true}"#.utf8))
    #expect(response.headers.first { $0.name.lowercased() == "x-echo" }?.value == "42")
    #expect(response.headers.first { $0.name.lowercased() == "content-type" }?.value == "application/json")
    #expect(response.headers.map { $0.name.lowercased() } == response.headers.map { $0.name.lowercased() }.sorted())
  }

  @Test(arguments: [("POST", 14), ("PUT", 300_000)])
  func aRequestBodyArrivesIntact(_ method: String, _ size: Int) throws {
    let directory = try TemporaryDirectory()
    let server = try TestHTTPServer { request in .text("got \(request.body.count) bytes", status: 201) }
    let worker = try SpawnedWorker(.network, in: directory)
    let body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let request = HTTPRequest(
      method: method, url: server.baseURL + "/carts", headers: [HTTPHeader("Content-Type", "application/octet-stream")],
      body: body)
    guard case .http(let response) = try worker.perform(.http(request), id: 1) else {
      Issue.record("no response")
      return
    }
    #expect(response.status == 201)
    #expect(response.body == Data("got \(size) bytes".utf8))
    let received = try #require(server.requests.first)
    #expect(received.method == method)
    #expect(received.body == body)
    #expect(received.header("Content-Type") == "application/octet-stream")
  }

  /// A server that takes the request and never answers: the worker gives up
  /// at the deadline and closes the connection.
  @Test func aServerThatNeverAnswersTimesOutAndIsHungUpOn() throws {
    let directory = try TemporaryDirectory()
    let server = try TestHTTPServer { _ in .hang }
    let worker = try SpawnedWorker(.network, in: directory)
    let url = server.baseURL + "/search?api_key=SECRET"
    let started = ContinuousClock.now
    let reply = try worker.perform(.http(.get(url, timeout: .milliseconds(500))), id: 1)
    #expect(ContinuousClock.now - started >= .milliseconds(490))
    #expect(
      reply == .failure(EffectFailure(.timeout, "GET \(server.baseURL)/search?…: no complete response within 500 ms")))
    #expect(try server.waitForAbandonedRequests(count: 1).first?.path == "/search")
  }

  @Test func aCancelledRequestIsAbortedAndNeverAnswered() throws {
    let directory = try TemporaryDirectory()
    let server = try TestHTTPServer { request in
      request.path == "/slow" ? TestHTTPResponse.text("late").delayed(by: .seconds(30)) : .text("quick")
    }
    let worker = try SpawnedWorker(.network, in: directory)
    try worker.send(.start(id: 1, request: .http(.get(server.baseURL + "/slow", timeout: .seconds(60)))))
    try server.waitForRequests(count: 1)
    try worker.send(.cancel(id: 1))
    #expect(try server.waitForAbandonedRequests(count: 1).first?.path == "/slow")
    #expect(try worker.eventsBeforePong(1).isEmpty)
    // The worker carries on.
    guard case .http(let response) = try worker.perform(.http(.get(server.baseURL + "/quick")), id: 2) else {
      Issue.record("no response after the cancel")
      return
    }
    #expect(response.body == Data("quick".utf8))
  }

  /// A `Content-Length` over `--max-response-bytes` ends the transfer before
  /// the body is read; one at the limit is fine.
  @Test func theResponseSizeIsLimited() throws {
    let directory = try TemporaryDirectory()
    let server = try TestHTTPServer { request in
      TestHTTPResponse(status: 200, body: Data(count: request.path == "/over" ? 1001 : 1000))
    }
    let worker = try SpawnedWorker(.network, arguments: ["--max-response-bytes", "1000"], in: directory)
    guard case .http(let atLimit) = try worker.perform(.http(.get(server.baseURL + "/at")), id: 1) else {
      Issue.record("a body at the limit was refused")
      return
    }
    #expect(atLimit.body.count == 1000)
    let over = try worker.perform(.http(.get(server.baseURL + "/over")), id: 2)
    #expect(
      over
        == .failure(
          EffectFailure(
            .decoding,
            "GET \(server.baseURL)/over: the response body exceeds the worker's limit of 1000 bytes (--max-response-bytes); the transfer was aborted"
          )))
  }

  /// Transfers run side by side: the server answers none of twenty
  /// requests until a second one has arrived while the first waits, which a
  /// worker doing one at a time would never let happen. (URLSession opens a
  /// few connections to a host at once, not twenty.)
  @Test func requestsRunConcurrently() throws {
    let directory = try TemporaryDirectory()
    let arrivals = ArrivalGate(opensAt: 2)
    let server = try TestHTTPServer { request in
      // A generous bound, so that a worker that does not run them side by
      // side fails the test instead of hanging it.
      let together = arrivals.arriveAndWait(timeout: .seconds(60))
      return TestHTTPResponse.text(together ? request.path : "\(request.path) alone")
    }
    let worker = try SpawnedWorker(.network, in: directory)
    try worker.send(
      (1...20).map { .start(id: EffectID($0), request: .http(.get(server.baseURL + "/\($0)", timeout: .seconds(120)))) }
    )
    var bodies: [EffectID: String] = [:]
    for _ in 1...20 {
      let (id, reply) = try worker.reply(timeout: .seconds(120))
      guard case .http(let response) = reply else {
        Issue.record("request \(id): \(reply)")
        continue
      }
      bodies[id] = String(decoding: response.body, as: UTF8.self)
    }
    #expect(bodies == Dictionary(uniqueKeysWithValues: (1...20).map { (EffectID($0), "/\($0)") }))
  }
}

/// A gate for the server's handlers: each waits until `opensAt` requests
/// have arrived, and once it opened none waits. If one gives up waiting,
/// the gate is broken and none waits either.
private final class ArrivalGate: Sendable {
  private let opensAt: Int
  private let state = Mutex((arrived: 0, broken: false))
  private let opened = DispatchSemaphore(value: 0)

  init(opensAt: Int) {
    self.opensAt = opensAt
  }

  /// Whether the gate opened, rather than `timeout` passing or it breaking.
  func arriveAndWait(timeout: Duration) -> Bool {
    let (arrived, broken) = state.withLock { state in
      state.arrived += 1
      return (state.arrived, state.broken)
    }
    if broken { return false }
    if arrived >= opensAt {
      if arrived == opensAt { for _ in 1..<opensAt { opened.signal() } }
      return true
    }
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    if opened.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success { return true }
    state.withLock { $0.broken = true }
    return false
  }
}
