import ComposableCore
import Foundation
import FoundationNetworking
import Testing

@testable import NetworkWorker

@Suite struct HTTPRequestValidationTests {
  @Test func aValidRequestCarriesMethodHeadersBodyAndTimeout() throws {
    let request = HTTPRequest(
      method: "PUT", url: "https://example.com/carts/1?x=1",
      headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("X-Trace", "abc")],
      body: Data("{}".utf8), timeout: .milliseconds(2500))
    let urlRequest = try request.urlRequest().get()
    #expect(urlRequest.url?.absoluteString == "https://example.com/carts/1?x=1")
    #expect(urlRequest.httpMethod == "PUT")
    #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(urlRequest.value(forHTTPHeaderField: "X-Trace") == "abc")
    #expect(urlRequest.httpBody == Data("{}".utf8))
    #expect(urlRequest.timeoutInterval >= 2.5)
  }

  @Test(arguments: [
    (HTTPRequest(url: "http://exa mple.com/"), "GET http://exa mple.com/: the URL is not valid"),
    (HTTPRequest(url: "http://h:port/"), "GET http://h:port/: the URL is not valid"),
    (HTTPRequest(url: "not a url at all"), "GET not a url at all: the URL has no scheme"),
    (HTTPRequest(url: "/relative/path"), "GET /relative/path: the URL has no scheme; use http:// or https://"),
    (
      HTTPRequest(url: "ftp://example.com/file"),
      "GET ftp://example.com/file: the scheme 'ftp' is not supported; use http or https"
    ),
    (
      HTTPRequest(url: "file:///etc/passwd"),
      "GET file:///etc/passwd: the scheme 'file' is not supported; use http or https"
    ),
    (HTTPRequest(url: "http://"), "GET http://: the URL"),
    (HTTPRequest(method: "GET /x HTTP/1.1\r\n", url: "http://h/"), "is not a valid HTTP method"),
    (HTTPRequest(method: "", url: "http://h/"), "is not a valid HTTP method"),
    (
      HTTPRequest(url: "http://h/", headers: [HTTPHeader("Bad Name", "v")]), "the header name 'Bad Name' is not a valid"
    ),
    (HTTPRequest(url: "http://h/", headers: [HTTPHeader("X", "a\r\nInjected: yes")]), "contains a line break"),
    (
      HTTPRequest(url: "http://h/?key=SECRET", timeout: .zero),
      "GET http://h/?…: the timeout must be at least 1 ms, not 0 ms"
    ),
  ])
  func invalidRequestsAreRefusedWithTheReason(_ request: HTTPRequest, _ expected: String) {
    guard case .failure(let failure) = request.urlRequest() else {
      Issue.record("\(request) was accepted")
      return
    }
    #expect(failure.kind == .invalidRequest)
    #expect(failure.message.contains(expected), "\(failure.message)")
    #expect(!failure.message.contains("SECRET"))
  }
}
