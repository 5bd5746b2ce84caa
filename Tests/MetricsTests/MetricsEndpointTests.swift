import Metrics
import Synchronization
import TestSupport
import Testing

/// The `/metrics` listener over real TCP on 127.0.0.1.
@Suite(.ownThreads) struct MetricsEndpointTests {
  @Test func aScrapeGetsTheExpositionAsText() throws {
    let scrapes = Atomic<Int>(0)
    let endpoint = try MetricsEndpoint(host: "127.0.0.1", port: 0) {
      let count = scrapes.add(1, ordering: .relaxed).newValue
      var text = PrometheusText()
      text.single("scrapes_total", .counter, help: "Scrapes answered.", count)
      return text.text
    }
    defer { endpoint.shutDown() }
    let client = try RawHTTPClient(port: endpoint.port)
    try client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    let first = try #require(try client.readResponse())
    #expect(first.status == 200)
    #expect(first.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
    #expect(first.text.hasSuffix("scrapes_total 1\n"))
    try client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse()?.text.hasSuffix("scrapes_total 2\n") == true)
  }

  @Test func otherPagesAndMethodsAreRefusedWithWhatIsServed() throws {
    let endpoint = try MetricsEndpoint(host: "127.0.0.1", port: 0) { "" }
    defer { endpoint.shutDown() }
    let client = try RawHTTPClient(port: endpoint.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let page = try #require(try client.readResponse())
    #expect(page.status == 404)
    #expect(page.text.contains("/metrics"))
    try client.send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
    let post = try #require(try client.readResponse())
    #expect(post.status == 405)
    #expect(post.header("Allow") == "GET, HEAD")
  }

  @Test func aProgramThatCannotAnswerGives503() throws {
    let endpoint = try MetricsEndpoint(host: "127.0.0.1", port: 0) { nil }
    defer { endpoint.shutDown() }
    let client = try RawHTTPClient(port: endpoint.port)
    try client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse()?.status == 503)
  }

  @Test func anAddressThatCannotBeListenedOnIsNamed() throws {
    let first = try MetricsEndpoint(host: "127.0.0.1", port: 0) { "" }
    defer { first.shutDown() }
    let error = #expect(throws: MetricsEndpointError.self) {
      _ = try MetricsEndpoint(host: "127.0.0.1", port: first.port) { "" }
    }
    #expect(error?.description.hasPrefix("cannot serve metrics on 127.0.0.1:\(first.port): ") == true)
    #expect(throws: MetricsEndpointError.self) { _ = try MetricsEndpoint(host: "not-an-address", port: 0) { "" } }
  }
}
