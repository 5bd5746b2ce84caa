import Foundation
import TestSupport
import Testing

/// tcaweb's own metrics (`--metrics`): what its routes answered, the event
/// streams open, the sign-ins, on a page Prometheus' linter accepts.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2)))
struct WebMetricsTests {
  @Test func requestsStreamsAndSignInsAreCounted() throws {
    let daemon = try DaemonProcess(arguments: ["--fsync", "never"])
    let token = try TemporaryDirectory(prefix: "web-metrics")
    try "a-token-long-enough-for-tcaweb\n".write(toFile: token.appending("token"), atomically: true, encoding: .utf8)
    let web = try WebClientProcess(
      socket: daemon.socketPath, arguments: ["--token-file", token.appending("token"), "--metrics", "127.0.0.1:0"])
    let metricsPort = try #require(web.metricsPort)
    let cookie = ["Cookie": "tcaweb_token=a-token-long-enough-for-tcaweb"]
    let json = ["Content-Type": "application/json"]
    #expect(try web.request("POST", "/login", headers: json, body: #""wrong""#).status == 401)
    #expect(try web.request("POST", "/login", headers: json, body: #""a-token-long-enough-for-tcaweb""#).status == 200)
    #expect(try web.request("GET", "/app.js").status == 200)
    #expect(try web.request("GET", "/no-such-page").status == 404)
    #expect(try web.request("GET", "/another-made-up-page").status == 404)
    let sent = try web.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#, headers: cookie)
    #expect(sent.status == 200)
    let stream = try web.events(headers: cookie)

    var page = try scrape(metricsPort)
    #expect(page.contains(#"tcaweb_http_requests_total{route="/login",status="401"} 1"#))
    #expect(page.contains(#"tcaweb_http_requests_total{route="/login",status="200"} 1"#))
    #expect(page.contains(#"tcaweb_http_requests_total{route="asset",status="200"} 1"#))
    // Made-up paths share one label.
    #expect(page.contains(#"tcaweb_http_requests_total{route="other",status="404"} 2"#))
    #expect(page.contains(#"tcaweb_http_requests_total{route="/api/request",status="200"} 1"#))
    #expect(page.contains(#"tcaweb_sign_ins_total{outcome="accepted"} 1"#))
    #expect(page.contains(#"tcaweb_sign_ins_total{outcome="refused"} 1"#))
    #expect(page.contains(#"tcaweb_event_streams{kind="state"} 1"#))
    #expect(page.contains("process_resident_memory_bytes "))
    let lint = try Promtool.checkMetrics(page)
    #expect(lint.status == 0, "promtool check metrics: \(lint.output)")

    // A stream the browser closes is no longer counted, once tcaweb sees it.
    stream.close()
    _ = try web.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#, headers: cookie)
    try waitUntil("tcaweb counts the closed stream out") {
      page = try scrape(metricsPort)
      return page.contains(#"tcaweb_event_streams{kind="state"} 0"#)
    }
  }

  private func scrape(_ port: UInt16) throws -> String {
    let client = try RawHTTPClient(port: port)
    try client.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let response = try #require(try client.readResponse())
    #expect(response.status == 200)
    return response.text
  }
}
