import Foundation

/// A real HTTP/1.1 server on 127.0.0.1, for tests that must exercise real
/// sockets: the network worker, URLSession, a daemon pointed at a fake API.
///
/// ```swift
/// let server = try TestHTTPServer { request in
///   request.path == "/hello" ? .text("hi") : .status(404)
/// }
/// // ... point a client at server.baseURL ...
/// let requests = try server.waitForRequests(count: 1)
/// #expect(requests[0].query("name") == "Ada")
/// ```
///
/// - The kernel picks the port (``port``), so tests never collide.
/// - Each connection is served on its own thread; keep-alive, pipelining and
///   `Connection: close` work; bodies are read by `Content-Length` (a
///   `Transfer-Encoding` body is answered 501) and answers always carry one.
/// - Every request is recorded (``requests``) before the handler sees it, in
///   arrival order; ``waitForRequests(count:timeout:)`` blocks until enough arrived.
/// - An answer can be delayed (``TestHTTPResponse/delay``) or never sent
///   (``TestHTTPResponse/hang``): for timeouts and cancellation. A client that
///   goes away during the wait is noted in ``abandonedRequests``.
/// - A malformed request is answered 400 (a head over 64 KiB 431, an
///   unsupported version 505) and its connection closed; it is not recorded. A
///   client that disconnects at any point only ends its own connection.
/// - ``stop()`` closes the listener and every connection, ending any wait;
///   `deinit` stops too.
public final class TestHTTPServer: Sendable {
  private let core: HTTPServerCore

  /// Starts a server answering every request with `handler`'s response. The
  /// handler runs on the connection's thread, so it may block (each
  /// connection has its own), but it must be thread-safe.
  public init(handler: @escaping @Sendable (RecordedRequest) -> TestHTTPResponse) throws {
    core = try HTTPServerCore(handler: handler)
    core.start()
  }

  deinit { core.stop() }

  /// The port the kernel picked.
  public var port: UInt16 { core.port }

  /// `http://127.0.0.1:PORT`, without a trailing slash.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Every request received so far, in arrival order.
  public var requests: [RecordedRequest] { core.log.requests }

  /// The requests whose client went away while their answer was delayed or
  /// hanging (a cancelled or timed-out client), in the order they went.
  public var abandonedRequests: [RecordedRequest] { core.log.abandoned }

  /// How many connections the server accepted: requests with the same
  /// ``RecordedRequest/connection`` shared one.
  public var connectionCount: Int { core.acceptedCount }

  /// Whether ``stop()`` was called.
  public var isStopped: Bool { core.isStopped }

  /// Blocks until at least `count` requests arrived, and returns them all.
  /// Throws ``TestHTTPServerError/timedOut(waitingFor:after:received:)``,
  /// which lists what did arrive, if they do not within `timeout`.
  @discardableResult
  public func waitForRequests(count: Int, timeout: Duration = .seconds(60)) throws -> [RecordedRequest] {
    try waitForRequests(count: count, matching: { _ in true }, timeout: timeout)
  }

  /// Blocks until at least `count` requests satisfying `predicate` arrived,
  /// and returns those requests.
  @discardableResult
  public func waitForRequests(
    count: Int, matching predicate: (RecordedRequest) -> Bool, timeout: Duration = .seconds(60)
  ) throws -> [RecordedRequest] {
    let found = core.log.wait(timeout: timeout) { requests, _ in
      let matching = requests.filter(predicate)
      return matching.count >= count ? matching : nil
    }
    guard let found else {
      throw TestHTTPServerError.timedOut(
        waitingFor: "\(count) matching request(s)", after: timeout, received: requests)
    }
    return found
  }

  /// Blocks until the clients of at least `count` delayed or hanging requests
  /// went away, and returns those requests.
  @discardableResult
  public func waitForAbandonedRequests(count: Int, timeout: Duration = .seconds(60)) throws -> [RecordedRequest] {
    let found = core.log.wait(timeout: timeout) { _, abandoned in abandoned.count >= count ? abandoned : nil }
    guard let found else {
      throw TestHTTPServerError.timedOut(
        waitingFor: "\(count) abandoned request(s) (abandoned so far: \(abandonedRequests.map(\.sequence)))",
        after: timeout, received: requests)
    }
    return found
  }

  // MARK: Waiting from async code

  /// Waits, without blocking a thread of Swift's cooperative pool, until at
  /// least `count` requests arrived, and returns them all. Async tests must
  /// use these: a blocked pool thread may be the one the client needs.
  @discardableResult
  public func waitForRequests(count: Int, timeout: Duration = .seconds(60)) async throws -> [RecordedRequest] {
    try await offThePool { try self.waitForRequests(count: count, timeout: timeout) }
  }

  /// Waits, without blocking the cooperative pool, until at least `count`
  /// requests satisfying `predicate` arrived, and returns those requests.
  @discardableResult
  public func waitForRequests(
    count: Int, matching predicate: @escaping @Sendable (RecordedRequest) -> Bool, timeout: Duration = .seconds(60)
  ) async throws -> [RecordedRequest] {
    try await offThePool { try self.waitForRequests(count: count, matching: predicate, timeout: timeout) }
  }

  /// Waits, without blocking the cooperative pool, until the clients of at
  /// least `count` delayed or hanging requests went away, and returns those requests.
  @discardableResult
  public func waitForAbandonedRequests(count: Int, timeout: Duration = .seconds(60)) async throws
    -> [RecordedRequest]
  {
    try await offThePool { try self.waitForAbandonedRequests(count: count, timeout: timeout) }
  }

  /// Runs a blocking wait on a thread of its own and resumes with its result.
  private func offThePool<Value: Sendable>(
    _ wait: @escaping @Sendable () throws -> Value
  ) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try wait() }) }
    }
  }

  /// Stops the server: closes the listener (new connections are refused),
  /// closes every connection (hanging and delayed answers are never sent) and
  /// waits for its threads. The recorded requests stay readable. Do not call
  /// it from inside the handler: it would wait for the handler's own thread.
  public func stop() { core.stop() }
}
