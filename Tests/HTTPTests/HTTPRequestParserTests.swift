import Testing

@testable import HTTP

/// Finding and parsing request heads, and their bodies' lengths.
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
    #expect(throws: HTTPRequestError(413, "a body of 999999999999 bytes is over the 65536-byte limit")) {
      try length("Content-Length: 999999999999\r\n")
    }
    #expect(throws: HTTPRequestError.self) { try length("Transfer-Encoding: chunked\r\n") }
  }

}
