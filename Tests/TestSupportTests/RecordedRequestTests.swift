import Foundation
import HTTP
import Testing

@testable import TestSupport

/// What the test server records of a request, and how it encodes its answers.
@Suite(.ownThreads) struct RecordedRequestTests {
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
    let ok = String(decoding: TestHTTPResponse.text("hi").encoded(method: "GET", closing: false), as: UTF8.self)
    #expect(
      ok
        == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nhi"
    )
    let head = String(decoding: TestHTTPResponse.text("hi").encoded(method: "HEAD", closing: true), as: UTF8.self)
    #expect(head.hasSuffix("Content-Length: 2\r\nConnection: close\r\n\r\n"))
    var noContent = TestHTTPResponse(
      status: 204, headers: [HTTPHeader("Content-Length", "99")], body: Data("x".utf8))
    noContent.headers.append(HTTPHeader("X-Kept", "yes"))
    let empty = String(decoding: noContent.encoded(method: "GET", closing: false), as: UTF8.self)
    #expect(empty == "HTTP/1.1 204 No Content\r\nX-Kept: yes\r\nConnection: keep-alive\r\n\r\n")
  }
}
