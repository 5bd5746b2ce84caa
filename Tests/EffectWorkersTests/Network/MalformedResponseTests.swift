import ComposableCore
import Foundation
import TestSupport
import Testing
import Wire

/// The network worker against answers no well-behaved server gives.
@Suite(.ownThreads) struct MalformedResponseTests {
  /// The deadline is on the whole exchange: a server that sends a byte every
  /// 100 ms is never idle long, and still times out.
  @Test func aTricklingAnswerTimesOutAtTheDeadline() throws {
    let directory = try TemporaryDirectory()
    let server = try RawHTTPResponder(answer: Self.closeDelimited(100), chunk: 1, pause: .milliseconds(100))
    let worker = try SpawnedWorker(.network, in: directory)
    let started = ContinuousClock.now
    let reply = try worker.perform(.http(.get(server.url("/drip"), timeout: .milliseconds(800))), id: 1)
    #expect(ContinuousClock.now - started >= .milliseconds(790))
    #expect(
      reply == .failure(EffectFailure(.timeout, "GET \(server.url("/drip")): no complete response within 800 ms")))
  }

  static func closeDelimited(_ body: Int) -> [UInt8] {
    Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n".utf8)
      + [UInt8](repeating: UInt8(ascii: "x"), count: body)
  }

  /// Without a `Content-Length`, the limit is enforced on the body as it
  /// arrives.
  @Test func aBodyThatGrowsOverTheLimitIsAborted() throws {
    let directory = try TemporaryDirectory()
    let server = try RawHTTPResponder(answer: Self.closeDelimited(100_000))
    let worker = try SpawnedWorker(.network, arguments: ["--max-response-bytes", "4096"], in: directory)
    let reply = try worker.perform(.http(.get(server.url("/big?token=SECRET"))), id: 1)
    #expect(
      reply
        == .failure(
          EffectFailure(
            .decoding,
            "GET \(server.url("/big"))?…: the response body exceeds the worker's limit of 4096 bytes (--max-response-bytes); the transfer was aborted"
          )))
  }

  @Test func aBodyEndedByCloseWithinTheLimitIsReturned() throws {
    let directory = try TemporaryDirectory()
    let server = try RawHTTPResponder(answer: Self.closeDelimited(4096))
    let worker = try SpawnedWorker(.network, arguments: ["--max-response-bytes", "4096"], in: directory)
    guard case .http(let response) = try worker.perform(.http(.get(server.url("/exact"))), id: 1) else {
      Issue.record("no response")
      return
    }
    #expect(response.status == 200)
    #expect(response.body == Data(repeating: UInt8(ascii: "x"), count: 4096))
  }

  @Test func aResponseCutShortIsAConnectionFailure() throws {
    let directory = try TemporaryDirectory()
    let server = try RawHTTPResponder(answer: Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly this".utf8))
    let worker = try SpawnedWorker(.network, in: directory)
    let reply = try worker.perform(.http(.get(server.url("/cut"))), id: 1)
    guard case .failure(let failure) = reply else {
      Issue.record("expected a failure, got \(reply)")
      return
    }
    #expect(failure.kind == .connection)
    #expect(failure.message.hasPrefix("GET \(server.url("/cut")): "))
  }

  @Test func anAnswerThatIsNotHTTPIsAConnectionFailure() throws {
    let directory = try TemporaryDirectory()
    let server = try RawHTTPResponder(answer: Array("SSH-2.0-OpenSSH_9.2\r\n\r\n".utf8))
    let worker = try SpawnedWorker(.network, in: directory)
    let reply = try worker.perform(.http(.get(server.url("/ssh"))), id: 1)
    guard case .failure(let failure) = reply else {
      Issue.record("expected a failure, got \(reply)")
      return
    }
    #expect(failure.kind == .connection)
    #expect(failure.message.contains("the server's answer is not HTTP"))
  }

  /// A port number URL accepts but libcurl does not.
  @Test func aURLOnlyLibcurlRefusesIsAnInvalidRequest() throws {
    let directory = try TemporaryDirectory()
    let worker = try SpawnedWorker(.network, in: directory)
    let reply = try worker.perform(.http(.get("http://127.0.0.1:99999/")), id: 1)
    guard case .failure(let failure) = reply else {
      Issue.record("expected a failure, got \(reply)")
      return
    }
    #expect(failure.kind == .invalidRequest)
    #expect(failure.message.hasPrefix("GET http://127.0.0.1:99999/: "))
  }
}
