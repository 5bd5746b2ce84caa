import Glibc
import Platform

/// One accepted connection, served on its own thread: reads requests one
/// after another within the server's limits, asks the handler, and answers.
/// Kept-alive and pipelined requests both work, since unread bytes stay in
/// the buffer.
struct HTTPServerConnection {
  /// How a connection ended, which decides how its socket is closed.
  enum Ending {
    /// The client went away, the server stopped, or the client stopped
    /// reading: close at once.
    case abort
    /// The server answered and closes: stop sending, drain, then close, so
    /// the client reads the whole answer.
    case closeGracefully
  }

  let descriptor: Int32
  let limits: HTTPLimits
  let stop: StopSignal
  let handler: @Sendable (HTTPRequest) -> HTTPResponse
  private var buffer: [UInt8] = []

  init(
    descriptor: Int32, limits: HTTPLimits, stop: StopSignal,
    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) {
    self.descriptor = descriptor
    self.limits = limits
    self.stop = stop
    self.handler = handler
  }

  /// Serves requests until the client closes or asks to close, sends
  /// something unreadable or too slowly, stays idle too long, or the server
  /// stops.
  mutating func serve() -> Ending {
    while true {
      // Idle: wait for the next request's first byte.
      if buffer.isEmpty {
        guard read(until: ContinuousClock.now + limits.idleTimeout) == .read else { return .abort }
      }
      let deadline = ContinuousClock.now + limits.requestDeadline
      let request: HTTPRequest
      do {
        guard let read = try readRequest(until: deadline) else { return .abort }
        request = read
      } catch {
        return reject(error)
      }
      let response = handler(request)
      let closing = request.head.closesConnection || stop.isFired
      switch response.body {
      case .bytes(let body):
        let bytes = HTTPResponseEncoder.encode(
          status: response.status, headers: response.headers, body: body, method: request.method, closing: closing)
        guard send(bytes) else { return .abort }
        if closing { return .closeGracefully }
      case .stream(let write):
        let head = HTTPResponseEncoder.head(
          status: response.status, headers: response.headers, contentLength: nil, closing: true)
        guard send(head) else { return .abort }
        if request.method != "HEAD" {
          write(HTTPStreamWriter(descriptor: descriptor, stop: stop, writeTimeout: limits.writeTimeout))
        }
        return .abort
      }
    }
  }

  /// Reads one whole request; nil when the client went away or the server
  /// stopped.
  ///
  /// - Throws: the status to answer: 408 past `deadline`, 431 for a head
  ///   over the limit, and the parser's.
  private mutating func readRequest(until deadline: ContinuousClock.Instant) throws(HTTPRequestError) -> HTTPRequest? {
    guard let headLength = try readHead(until: deadline) else { return nil }
    let head = try HTTPRequestParser.parseHead(buffer[..<headLength], limits: limits)
    let bodyLength = try HTTPRequestParser.bodyLength(of: head, limits: limits)
    buffer.removeFirst(headLength)
    if head.expectsContinue && buffer.count < bodyLength {
      guard send(HTTPResponseEncoder.continueInterim) else { return nil }
    }
    while buffer.count < bodyLength {
      switch read(until: deadline) {
      case .read: continue
      case .timedOut: throw HTTPRequestError(408, "the body did not arrive within \(limits.requestDeadline)")
      case .gone: return nil
      }
    }
    let body = Array(buffer[..<bodyLength])
    buffer.removeFirst(bodyLength)
    return HTTPRequest(head: head, body: body)
  }

  /// Reads until the buffer holds a whole head and returns its length; nil
  /// when the client went away or the server stopped.
  private mutating func readHead(until deadline: ContinuousClock.Instant) throws(HTTPRequestError) -> Int? {
    var resumeAt = 0
    while true {
      if let end = try HTTPRequestParser.takeHeadEnd(in: &buffer, resumeAt: &resumeAt, limits: limits) {
        return end
      }
      switch read(until: deadline) {
      case .read: continue
      case .timedOut:
        throw HTTPRequestError(408, "the request head did not arrive within \(limits.requestDeadline)")
      case .gone: return nil
      }
    }
  }

  private enum ReadResult { case read, timedOut, gone }

  /// Reads more bytes into the buffer, waiting until `deadline` for them.
  private mutating func read(until deadline: ContinuousClock.Instant) -> ReadResult {
    switch SocketCalls.wait(for: Int16(POLLIN), on: descriptor, orStop: stop.readFD, timeout: deadline - .now) {
    case .timedOut: return .timedOut
    case .stopped: return .gone
    case .ready: return SocketCalls.receive(from: descriptor, appendingTo: &buffer) > 0 ? .read : .gone
    }
  }

  private func send(_ bytes: [UInt8]) -> Bool {
    SocketCalls.sendAll(bytes, to: descriptor, orStop: stop.readFD, timeout: limits.writeTimeout)
  }

  /// Answers an unreadable request with its status and closes.
  private func reject(_ error: HTTPRequestError) -> Ending {
    send(HTTPResponseEncoder.rejection(error)) ? .closeGracefully : .abort
  }
}
