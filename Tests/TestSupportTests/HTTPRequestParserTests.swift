import Foundation
import Testing

@testable import TestSupport

/// The pure parts of the server: finding and parsing request heads, body
/// lengths, recording targets, encoding answers.
@Suite struct HTTPRequestParserTests {
  @Test func theEndOfAHeadIsFoundWithCRLFOrBareLF() {
    #expect(HTTPRequestParser.headEnd(in: Array("GET / HTTP/1.1\r\nA: b\r\n\r\nrest".utf8)) == 24)
    #expect(HTTPRequestParser.headEnd(in: Array("GET / HTTP/1.1\nA: b\n\nrest".utf8)) == 21)
    #expect(HTTPRequestParser.headEnd(in: Array("GET / HTTP/1.1\r\nA: b\r\n".utf8)) == nil)
    // A terminator split across reads is found from the resume point.
    let bytes = Array("GET / HTTP/1.1\r\n\r\n".utf8)
    let resume = HTTPRequestParser.resumePoint(afterScanning: bytes.count - 2)
    #expect(HTTPRequestParser.headEnd(in: bytes, resumeAt: resume) == bytes.count)
  }

  @Test func aHeadParsesIntoItsParts() throws {
    let head = try HTTPRequestParser.parseHead(
      Array("POST /carts?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length:  12 \r\nX-A: 1\r\nx-a: 2\r\n\r\n".utf8)[...])
    #expect(head.method == "POST")
    #expect(head.target == "/carts?x=1")
    #expect(head.version == "HTTP/1.1")
    #expect(head.headers.values(for: "X-A") == ["1", "2"])
    #expect(try HTTPRequestParser.bodyLength(of: head) == 12)
    #expect(!head.closesConnection)
    #expect(!head.expectsContinue)
  }

  @Test func connectionRulesFollowTheVersion() throws {
    func head(_ text: String) throws -> HTTPRequestHead { try HTTPRequestParser.parseHead(Array(text.utf8)[...]) }
    #expect(try head("GET / HTTP/1.1\r\nConnection: Keep-Alive, Close\r\n\r\n").closesConnection)
    #expect(try head("GET / HTTP/1.0\r\n\r\n").closesConnection)
    #expect(try !head("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").closesConnection)
    #expect(try head("PUT / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n").expectsContinue)
  }

  @Test func badBodyLengthsAreRefused() throws {
    func length(_ fields: String) throws(HTTPRequestError) -> Int {
      try HTTPRequestParser.bodyLength(
        of: HTTPRequestParser.parseHead(Array("POST / HTTP/1.1\r\n\(fields)\r\n".utf8)[...]))
    }
    #expect(try length("") == 0)
    #expect(try length("Content-Length: 5, 5\r\n") == 5)
    #expect(throws: HTTPRequestError.self) { try length("Content-Length: -1\r\n") }
    #expect(throws: HTTPRequestError.self) { try length("Content-Length: 1e3\r\n") }
    #expect(throws: HTTPRequestError.self) { try length("Content-Length: 5\r\nContent-Length: 6\r\n") }
    #expect(throws: HTTPRequestError(413, "a body of 999999999999 bytes is over the 67108864-byte limit")) {
      try length("Content-Length: 999999999999\r\n")
    }
    #expect(throws: HTTPRequestError.self) { try length("Transfer-Encoding: chunked\r\n") }
  }

  @Test func targetsAreRecordedDecoded() {
    let request = RecordedRequest(
      sequence: 1, connection: 1, method: "GET", target: "/gifs/v1/gifs/search?q=caf%C3%A9%20au+lait&x=%2B&bad=%ZZ#frag"
    )
    #expect(request.path == "/gifs/v1/gifs/search")
    #expect(request.query("q") == "café au lait")
    #expect(request.query("x") == "+")
    #expect(request.query("bad") == "%ZZ")
    #expect(request.pathSegments == ["gifs", "v1", "gifs", "search"])
    let absolute = RecordedRequest(sequence: 2, connection: 1, method: "GET", target: "http://example.test/a%20b?c=d")
    #expect(absolute.path == "/a b")
    #expect(absolute.query("c") == "d")
    #expect(
      request.description == "#1 GET /gifs/v1/gifs/search?q=caf%C3%A9%20au+lait&x=%2B&bad=%ZZ#frag (connection 1)")
  }

  @Test func answersCarryTheirLengthAndOnlyAllowedBodies() {
    let ok = String(decoding: HTTPResponseEncoder.encode(.text("hi"), method: "GET", closing: false), as: UTF8.self)
    #expect(
      ok
        == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nhi"
    )
    let head = String(decoding: HTTPResponseEncoder.encode(.text("hi"), method: "HEAD", closing: true), as: UTF8.self)
    #expect(head.hasSuffix("Content-Length: 2\r\nConnection: close\r\n\r\n"))
    var noContent = TestHTTPResponse(
      status: 204, headers: [TestHTTPHeader("Content-Length", "99")], body: Data("x".utf8))
    noContent.headers.append(TestHTTPHeader("X-Kept", "yes"))
    let empty = String(decoding: HTTPResponseEncoder.encode(noContent, method: "GET", closing: false), as: UTF8.self)
    #expect(empty == "HTTP/1.1 204 No Content\r\nX-Kept: yes\r\nConnection: keep-alive\r\n\r\n")
  }
}
