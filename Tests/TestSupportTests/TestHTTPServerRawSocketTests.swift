import Foundation
import Glibc
import HTTP
import Testing

@testable import TestSupport

/// The server's HTTP/1.1 handling on bare sockets: keep-alive, pipelining,
/// `Connection: close`, malformed requests, clients that walk away.
@Suite(.ownThreads, .timeLimit(.minutes(2)))
struct TestHTTPServerRawSocketTests {
  func echoServer() throws -> TestHTTPServer {
    try TestHTTPServer { request in
      .text("\(request.method) \(request.path) \(request.bodyText)")
    }
  }

  @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
    let server = try echoServer()
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET /one HTTP/1.1\r\nHost: test\r\n\r\n")
    let one = try #require(try client.readResponse())
    #expect(one.statusLine == "HTTP/1.1 200 OK")
    #expect(one.text == "GET /one ")
    #expect(one.header("Connection") == "keep-alive")
    #expect(one.header("Content-Length") == "9")

    try client.send("POST /two HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\nhello")
    #expect(try client.readResponse()?.text == "POST /two hello")

    // Pipelined: two requests in one write, answered in order. A HEAD answer
    // has a length but no body, or the next answer would not parse.
    try client.send("HEAD /three HTTP/1.1\r\nHost: test\r\n\r\nGET /four HTTP/1.1\r\nHost: test\r\n\r\n")
    let three = try #require(try client.readResponse(toHead: true))
    #expect(three.header("Content-Length") == "12")
    #expect(try client.readResponse()?.text == "GET /four ")

    try client.send("GET /five HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
    let five = try #require(try client.readResponse())
    #expect(five.text == "GET /five ")
    #expect(five.header("Connection") == "close")
    #expect(try client.serverClosed())

    let requests = try server.waitForRequests(count: 5)
    #expect(requests.map(\.path) == ["/one", "/two", "/three", "/four", "/five"])
    #expect(requests.allSatisfy { $0.connection == 1 })
    #expect(server.connectionCount == 1)
  }

  @Test func expectContinueGetsTheInterimAnswerBeforeALargeBody() throws {
    let server = try TestHTTPServer { request in .text("\(request.body.count)", status: 201) }
    let client = try RawHTTPClient(port: server.port)
    let body = (0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try client.send(
      "PUT /upload HTTP/1.1\r\nHost: test\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
    let interim = try #require(try client.readResponse(toHead: true))
    #expect(interim.statusLine == "HTTP/1.1 100 Continue")
    #expect(interim.headers.isEmpty)

    try client.send(body)
    let final = try #require(try client.readResponse())
    #expect(final.status == 201)
    #expect(final.text == "\(body.count)")
    #expect(try server.waitForRequests(count: 1).first?.body == Data(body))
  }

  @Test func http10ClosesUnlessAskedToKeepAlive() throws {
    let server = try echoServer()
    let kept = try RawHTTPClient(port: server.port)
    try kept.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    #expect(try kept.readResponse()?.header("Connection") == "keep-alive")
    try kept.send("GET /b HTTP/1.0\r\n\r\n")
    #expect(try kept.readResponse()?.header("Connection") == "close")
    #expect(try kept.serverClosed())
  }

  @Test func aHandlerAskingToCloseClosesTheConnection() throws {
    let server = try TestHTTPServer { _ in
      TestHTTPResponse(status: 200, headers: [HTTPHeader("Connection", "close")], body: Data("bye".utf8))
    }
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
    #expect(try client.readResponse()?.text == "bye")
    #expect(try client.serverClosed())
  }

  @Test(arguments: [
    ("GARBAGE\r\n\r\n", 400),
    ("GET /x HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
    ("GET /x HTTP/1.1\r\nBad Name: x\r\n\r\n", 400),
    ("GET /x HTTP/1.1\r\nContent-Length: abc\r\n\r\n", 400),
    ("GET /x HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400),
    ("GET /x HTTP/1.1\r\n folded: value\r\n\r\n", 400),
    ("GET x HTTP/1.1\r\n\r\n", 400),
    ("GET /x HTTP/2.0\r\n\r\n", 505),
    ("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 501),
  ])
  func malformedRequestsAreRefusedAndTheServerKeepsServing(request: String, status: Int) throws {
    let server = try echoServer()
    let bad = try RawHTTPClient(port: server.port)
    try bad.send(request)
    let answer = try #require(try bad.readResponse())
    #expect(answer.status == status)
    #expect(answer.header("Connection") == "close")
    #expect(answer.text.hasPrefix("\(status) "))
    #expect(try bad.serverClosed())

    let good = try RawHTTPClient(port: server.port)
    try good.send("GET /fine HTTP/1.1\r\nHost: test\r\n\r\n")
    #expect(try good.readResponse()?.status == 200)
    #expect(server.requests.map(\.path) == ["/fine"])
  }

  @Test func anOversizedHeadIsRefused() throws {
    let server = try echoServer()
    let client = try RawHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70 * 1024) + "\r\n\r\n")
    #expect(try client.readResponse()?.status == 431)
  }

  @Test func clientsThatWalkAwayDoNotHurtTheServer() throws {
    let server = try TestHTTPServer { request in
      request.path == "/hang" ? .hang : .text("ok")
    }
    // Connects and leaves; leaves in the middle of a head; in the middle of a body.
    try RawHTTPClient(port: server.port).close()
    try RawHTTPClient(port: server.port).send("GET /half HTTP/1.1\r\nHost: te")
    try RawHTTPClient(port: server.port).send("POST /body HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly ten..")
    // Sends a whole request and leaves before the answer.
    try RawHTTPClient(port: server.port).send("GET /gone HTTP/1.1\r\nHost: test\r\n\r\n")
    // Leaves while its answer hangs: noted as abandoned.
    let hanging = try RawHTTPClient(port: server.port)
    try hanging.send("GET /hang HTTP/1.1\r\nHost: test\r\n\r\n")
    try server.waitForRequests(count: 1, matching: { $0.path == "/hang" })
    hanging.close()
    #expect(try server.waitForAbandonedRequests(count: 1).map(\.path) == ["/hang"])

    let client = try RawHTTPClient(port: server.port)
    try client.send("GET /still HTTP/1.1\r\nHost: test\r\n\r\n")
    #expect(try client.readResponse()?.text == "ok")
    #expect(server.requests.map(\.path).filter { $0 != "/gone" } == ["/hang", "/still"])
  }

  @Test func stopClosesIdleAndHangingConnections() throws {
    let server = try TestHTTPServer { _ in .hang }
    let idle = try RawHTTPClient(port: server.port)
    let hanging = try RawHTTPClient(port: server.port)
    try hanging.send("GET /hang HTTP/1.1\r\nHost: test\r\n\r\n")
    try server.waitForRequests(count: 1)
    server.stop()
    #expect(try idle.serverClosed())
    #expect(try hanging.readResponse() == nil)
    #expect(server.abandonedRequests.isEmpty)
  }

  @Test func leadingEmptyLinesAndBareLineFeedsAreAccepted() throws {
    let server = try echoServer()
    let client = try RawHTTPClient(port: server.port)
    try client.send("\r\n\r\nGET /lf HTTP/1.1\nHost: test\n\n")
    #expect(try client.readResponse()?.text == "GET /lf ")
  }
}
