import Dispatch
import Glibc
import HTTP
import Synchronization
import TestSupport
import Testing

/// The server over real TCP connections on 127.0.0.1: answers, limits and
/// hostile clients, each met with its status while the server keeps serving.
@Suite(.ownThreads) struct HTTPServerTests {
  /// A server answering `GET /hello` and echoing a POST's body, with
  /// `limits`.
  private func server(limits: HTTPLimits = HTTPLimits()) throws -> HTTPServer {
    let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits) { request in
      switch (request.method, request.path) {
      case ("GET", "/hello"): .text("hello \(request.query("name") ?? "you")")
      case ("POST", "/echo"): .bytes(request.body, contentType: "application/octet-stream")
      default: .status(404, "no page \(request.path)")
      }
    }
    try server.start()
    return server
  }

  /// Whether the server still answers a well-formed request on a new
  /// connection.
  private func stillServes(_ server: HTTPServer) throws -> Bool {
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
    return try client.readResponse()?.text == "hello you"
  }

  @Test func requestsOnOneConnectionAreAnsweredInTurn() throws {
    let server = try server()
    defer { server.shutDown() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(
      "GET /hello?name=caf%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")
    let first = try #require(try client.readResponse())
    #expect(first.status == 200)
    #expect(first.text == "hello café")
    #expect(first.header("Connection") == "keep-alive")
    let second = try #require(try client.readResponse())
    #expect(second.text == "abc")
    try client.send("GET /nowhere HTTP/1.1\r\nConnection: close\r\n\r\n")
    let third = try #require(try client.readResponse())
    #expect(third.status == 404)
    #expect(third.text == "404 Not Found: no page /nowhere\n")
    #expect(try client.serverClosed())
  }

  @Test(arguments: [
    ("GARBAGE\r\n\r\n", 400),
    ("GET / HTTP/2.0\r\n\r\n", 505),
    ("G(T / HTTP/1.1\r\n\r\n", 400),
    ("GET nopath HTTP/1.1\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\n folded: value\r\n\r\n", 400),
    ("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
    ("POST /echo HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
    ("POST /echo HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
    ("POST /echo HTTP/1.1\r\nContent-Length: 70000\r\n\r\n", 413),
  ])
  func malformedRequestsGetTheirStatusAndTheServerKeepsServing(request: String, status: Int) throws {
    let server = try server()
    defer { server.shutDown() }
    let client = try RawHTTPClient(port: server.port)
    try client.send(request)
    let response = try #require(try client.readResponse())
    #expect(response.status == status, "\(response.text)")
    #expect(response.header("Connection") == "close")
    #expect(try client.serverClosed())
    #expect(try stillServes(server))
  }

  @Test func anOversizedHeadOrTooManyFieldsIs431() throws {
    let server = try server(limits: HTTPLimits(maximumHeadBytes: 4096, maximumHeaderFields: 8))
    defer { server.shutDown() }
    let big = try RawHTTPClient(port: server.port)
    try big.send("GET /hello HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 8000))\r\n\r\n")
    let bigAnswer = try #require(try big.readResponse())
    #expect(bigAnswer.status == 431)
    #expect(bigAnswer.text.contains("over 4096 bytes"))

    let many = try RawHTTPClient(port: server.port)
    try many.send("GET /hello HTTP/1.1\r\n" + (1...9).map { "X-\($0): 1\r\n" }.joined() + "\r\n")
    let manyAnswer = try #require(try many.readResponse())
    #expect(manyAnswer.status == 431)
    #expect(manyAnswer.text.contains("9 header fields; at most 8"))
    #expect(try stillServes(server))
  }

  /// A client that sends its head a little at a time (slowloris) is cut
  /// off at the request deadline, and meanwhile others are served.
  @Test func aRequestThatArrivesTooSlowlyIs408() throws {
    let server = try server(limits: HTTPLimits(requestDeadline: .milliseconds(300)))
    defer { server.shutDown() }
    let slow = try RawHTTPClient(port: server.port)
    try slow.send("GET /hello HTTP/1.1\r\nX-A: ")
    #expect(try stillServes(server))
    let answer = try #require(try slow.readResponse())
    #expect(answer.status == 408)
    #expect(answer.text.contains("did not arrive within"))
    #expect(try slow.serverClosed())
  }

  @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() throws {
    let server = try server(limits: HTTPLimits(idleTimeout: .milliseconds(200)))
    defer { server.shutDown() }
    let idle = try RawHTTPClient(port: server.port)
    #expect(try idle.serverClosed())
    #expect(try stillServes(server))
  }

  @Test func connectionsPastTheLimitAre503() throws {
    let server = try server(limits: HTTPLimits(maximumConnections: 2))
    defer { server.shutDown() }
    let first = try RawHTTPClient(port: server.port)
    let second = try RawHTTPClient(port: server.port)
    try first.send("GET /hello HTTP/1.1\r\n\r\n")
    try second.send("GET /hello HTTP/1.1\r\n\r\n")
    #expect(try first.readResponse()?.status == 200)
    #expect(try second.readResponse()?.status == 200)
    let third = try RawHTTPClient(port: server.port)
    let refused = try #require(try third.readResponse())
    #expect(refused.status == 503)
    #expect(refused.text.contains("serves 2 connections at once"))
    first.close()
    // Once the first connection's thread has let go, there is room again.
    let deadline = ContinuousClock.now + .seconds(60)
    while server.openConnections > 1 && ContinuousClock.now < deadline {
      usleep(5_000)
    }
    #expect(server.openConnections == 1)
    #expect(try stillServes(server))
  }

  @Test func anEventStreamReachesTheClientEventByEvent() throws {
    let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
      .eventStream { writer in
        for version in 1...3 {
          guard writer.write(ServerSentEvent(id: "\(version)", event: "diff", data: "{\"v\":\(version)}\nline two"))
          else { return }
        }
      }
    }
    try server.start()
    defer { server.shutDown() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET /events HTTP/1.1\r\n\r\n")
    let head = try #require(try client.readResponse(toHead: true))
    #expect(head.header("Content-Type") == "text/event-stream")
    #expect(head.header("Content-Length") == nil)
    let stream = try client.readStream { _ in false }
    #expect(
      stream
        == (1...3).map { "id: \($0)\nevent: diff\ndata: {\"v\":\($0)}\ndata: line two\n\n" }.joined())
  }

  /// A client that stops reading ends its stream after the write timeout:
  /// the handler's write fails instead of waiting for ever.
  @Test func aStreamToAClientThatDoesNotReadEndsAfterTheWriteTimeout() throws {
    let ended = DispatchSemaphore(value: 0)
    let written = Mutex(0)
    let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits(writeTimeout: .milliseconds(200))) {
      _ in
      .eventStream { writer in
        let event = ServerSentEvent(data: String(repeating: "x", count: 16 * 1024))
        while writer.write(event) { written.withLock { $0 += 1 } }
        ended.signal()
      }
    }
    try server.start()
    defer { server.shutDown() }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET /events HTTP/1.1\r\n\r\n")
    #expect(ended.wait(timeout: .now() + 60) == .success)
    #expect(written.withLock { $0 } > 0)
  }

  @Test func shuttingDownEndsStreamsAndIdleConnections() throws {
    let started = DispatchSemaphore(value: 0)
    let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in
      .eventStream { writer in
        started.signal()
        while writer.write(ServerSentEvent.keepAlive) {
          usleep(1_000)
        }
      }
    }
    try server.start()
    let streaming = try RawHTTPClient(port: server.port)
    try streaming.send("GET /events HTTP/1.1\r\n\r\n")
    #expect(started.wait(timeout: .now() + 60) == .success)
    let idle = try RawHTTPClient(port: server.port)
    server.shutDown(timeout: .seconds(30))
    #expect(server.openConnections == 0)
    _ = try streaming.readStream { _ in false }
    #expect(try idle.serverClosed())
  }
}
