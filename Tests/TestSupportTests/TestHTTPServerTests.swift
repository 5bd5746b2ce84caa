import Dispatch
import Foundation
import Glibc
import Testing

@testable import TestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The server against URLSession, the client the network worker uses:
/// routing, recording, bodies, delays, stopping.
@Suite(.ownThreads, .timeLimit(.minutes(2)))
struct TestHTTPServerTests {
  @Test func routesAndRecordsRequestsWithTheirQueryAndHeaders() async throws {
    let server = try TestHTTPServer { request in
      request.path == "/hello" ? .text("hello \(request.query("name") ?? "nobody")") : .status(404)
    }
    let hello = try await URLSessionClient.fetch(
      "\(server.baseURL)/hello?name=Ada%20Lovelace&tag=a+b&flag", headers: ["X-Test": "one"])
    #expect(hello.status == 200)
    #expect(hello.text == "hello Ada Lovelace")
    #expect(hello.contentType == "text/plain; charset=utf-8")
    let missing = try await URLSessionClient.fetch("\(server.baseURL)/nope")
    #expect(missing.status == 404)
    #expect(missing.text == "404 Not Found\n")

    let requests = try await server.waitForRequests(count: 2)
    #expect(requests.map(\.sequence) == [1, 2])
    #expect(requests.map(\.method) == ["GET", "GET"])
    #expect(requests.map(\.path) == ["/hello", "/nope"])
    #expect(requests[0].target == "/hello?name=Ada%20Lovelace&tag=a+b&flag")
    #expect(
      requests[0].queryItems == [
        URLQueryItem(name: "name", value: "Ada Lovelace"), URLQueryItem(name: "tag", value: "a b"),
        URLQueryItem(name: "flag", value: nil),
      ])
    #expect(requests[0].query("flag") == "")
    #expect(requests[0].header("x-test") == "one")
    #expect(requests[0].header("Host") == "127.0.0.1:\(server.port)")
    #expect(requests[0].version == "HTTP/1.1")
    #expect(requests[0].body.isEmpty)
    #expect(requests[0].receivedAt <= requests[1].receivedAt)
    #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
  }

  @Test func recordsPostBodiesSmallAndLarge() async throws {
    let server = try TestHTTPServer { request in
      .json(#"{"received":\#(request.body.count)}"#, status: 201)
    }
    struct Order: Codable, Equatable {
      var userId: Int
      var items: [Int]
    }
    let order = Order(userId: 7, items: [1, 2, 3])
    let small = try await URLSessionClient.fetch(
      "\(server.baseURL)/orders", method: "POST", body: try JSONEncoder().encode(order),
      headers: ["Content-Type": "application/json"])
    #expect(small.status == 201)
    #expect(small.contentType == "application/json; charset=utf-8")

    // Large enough for the server to need many reads, and under libcurl's
    // 1 MiB threshold for `Expect: 100-continue`: how libcurl times that
    // wait out under load is its own affair (a CI run once failed with
    // "Received HTTP/0.9"); the raw-socket suite tests the server's part.
    let large = Data((0..<(768 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let big = try await URLSessionClient.fetch("\(server.baseURL)/upload", method: "PUT", body: large)
    #expect(big.text == #"{"received":\#(large.count)}"#)

    let requests = try await server.waitForRequests(count: 2)
    #expect(requests[0].method == "POST")
    #expect(requests[0].header("Content-Type") == "application/json")
    #expect(try requests[0].decodeBody(as: Order.self) == order)
    #expect(requests[1].method == "PUT")
    #expect(requests[1].header("Expect") == nil)
    #expect(requests[1].body == large)
  }

  @Test func aDelayedAnswerComesNoSoonerThanItsDelay() async throws {
    let server = try TestHTTPServer { _ in .text("late").delayed(by: .milliseconds(300)) }
    let start = ContinuousClock.now
    let response = try await URLSessionClient.fetch("\(server.baseURL)/slow")
    #expect(ContinuousClock.now - start >= .milliseconds(300))
    #expect(response.text == "late")
  }

  @Test func aClientTimeoutAbandonsAHangingRequest() async throws {
    let server = try TestHTTPServer { _ in .hang }
    await #expect(throws: (any Error).self) {
      _ = try await URLSessionClient.fetch("\(server.baseURL)/forever", timeout: 1)
    }
    let abandoned = try await server.waitForAbandonedRequests(count: 1)
    #expect(abandoned.map(\.path) == ["/forever"])
  }

  @Test func stopEndsAHangingRequestAndRefusesNewConnections() async throws {
    let server = try TestHTTPServer { _ in .hang }
    let port = server.port
    let pending = Task { try await URLSessionClient.fetch("\(server.baseURL)/forever", timeout: 60) }
    try await server.waitForRequests(count: 1)
    server.stop()
    #expect(server.isStopped)
    // The hanging request ends with an error, long before its own timeout.
    await #expect(throws: (any Error).self) { _ = try await pending.value }
    #expect(throws: RawHTTPClient.ConnectError.self) { _ = try RawHTTPClient(port: port) }
    #expect(server.requests.map(\.path) == ["/forever"])
    server.stop()
  }

  @Test func waitingForRequestsThatNeverComeThrowsWhatArrived() async throws {
    let server = try TestHTTPServer { _ in .text("ok") }
    _ = try await URLSessionClient.fetch("\(server.baseURL)/only")
    let error = #expect(throws: TestHTTPServerError.self) {
      try server.waitForRequests(count: 2, timeout: .milliseconds(200))
    }
    guard case .timedOut(_, _, let received) = error else {
      Issue.record("expected a timeout, got \(String(describing: error))")
      return
    }
    #expect(received.map(\.path) == ["/only"])
    #expect(error?.description.contains("GET /only") == true)
    let matching = try await server.waitForRequests(count: 1, matching: { $0.path == "/only" })
    #expect(matching.count == 1)
  }

  @Test func droppingTheServerStopsIt() throws {
    var server: TestHTTPServer? = try TestHTTPServer { _ in .text("ok") }
    let port = try #require(server?.port)
    _ = try RawHTTPClient(port: port)
    server = nil
    #expect(throws: RawHTTPClient.ConnectError.self) { _ = try RawHTTPClient(port: port) }
  }

  @Test func handlersRunConcurrentlyOnTheirOwnConnections() async throws {
    let fastHandled = DispatchSemaphore(value: 0)
    let server = try TestHTTPServer { request in
      guard request.path == "/slow" else {
        fastHandled.signal()
        return .text(request.path)
      }
      // Held until the fast request's handler has run, on its own thread
      // while this one waits; a generous bound ends a failing test.
      let together = fastHandled.wait(timeout: .now() + 60) == .success
      return .text(together ? request.path : "\(request.path) alone")
    }
    async let slow = URLSessionClient.fetch("\(server.baseURL)/slow", timeout: 120)
    try await server.waitForRequests(count: 1)
    // The fast request is answered while the slow one still waits.
    let fast = try await URLSessionClient.fetch("\(server.baseURL)/fast", timeout: 120)
    #expect(fast.text == "/fast")
    #expect(try await slow.text == "/slow")
  }
}
