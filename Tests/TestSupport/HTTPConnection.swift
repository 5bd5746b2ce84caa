import Foundation
import Glibc
import HTTP
import Platform

/// One accepted connection, served on its own thread: reads requests one
/// after another (keep-alive and pipelining both work, since unread bytes stay
/// in the buffer), records each, asks the handler, and answers.
struct HTTPConnection {
  /// How a connection ended, which decides how its socket is closed.
  enum Ending {
    /// The client went away, or the server stopped: close at once.
    case abort
    /// The server answered and closes: stop sending, drain, then close, so
    /// the client reads the whole answer.
    case closeGracefully
  }

  /// What a wait before answering ended with.
  private enum Pause { case elapsed, clientGone, stopped }

  /// Generous: the test server reads what clients under test send, however
  /// large, and does not time them out (tests do that).
  static let limits = HTTPLimits(
    maximumHeadBytes: 64 * 1024, maximumHeaderFields: 1024, maximumBodyBytes: 64 * 1024 * 1024)

  let fd: Int32
  /// The connection's number, from 1 in accept order.
  let number: Int
  let core: HTTPServerCore
  private var buffer: [UInt8] = []

  init(fd: Int32, number: Int, core: HTTPServerCore) {
    self.fd = fd
    self.number = number
    self.core = core
  }

  /// Serves requests until the client closes, asks to close, sends something
  /// unreadable, or the server stops.
  mutating func serve() -> Ending {
    while true {
      let headLength: Int
      let head: HTTPRequestHead
      let bodyLength: Int
      do {
        guard let length = try readHead() else { return .abort }
        headLength = length
        head = try HTTPRequestParser.parseHead(buffer[..<headLength], limits: Self.limits)
        bodyLength = try HTTPRequestParser.bodyLength(of: head, limits: Self.limits)
      } catch {
        return reject(error)
      }
      buffer.removeFirst(headLength)
      if head.expectsContinue && buffer.count < bodyLength {
        guard SocketCalls.sendAll(HTTPResponseEncoder.continueInterim, to: fd) else { return .abort }
      }
      while buffer.count < bodyLength {
        guard read() else { return .abort }
      }
      let body = Data(buffer[..<bodyLength])
      buffer.removeFirst(bodyLength)

      let request = core.log.record { sequence in
        RecordedRequest(
          sequence: sequence, connection: number, method: head.method, target: head.target,
          version: head.version, headers: head.headers, body: body)
      }
      let response = core.handler(request)
      switch pause(before: response) {
      case .elapsed: break
      case .clientGone:
        core.log.markAbandoned(request.sequence)
        return .abort
      case .stopped:
        return .abort
      }
      let closing = head.closesConnection || response.asksToClose || core.isStopped
      let bytes = response.encoded(method: head.method, closing: closing)
      guard SocketCalls.sendAll(bytes, to: fd) else { return .abort }
      if closing { return .closeGracefully }
    }
  }

  /// Reads until the buffer holds a whole head and returns its length; `nil`
  /// when the client went away (before or in the middle of a request) or the
  /// server stopped. Throws 431 for a head over the limit.
  private mutating func readHead() throws(HTTPRequestError) -> Int? {
    var resumeAt = 0
    while true {
      if let end = try HTTPRequestParser.takeHeadEnd(in: &buffer, resumeAt: &resumeAt, limits: Self.limits) {
        return end
      }
      guard read() else { return nil }
    }
  }

  /// Reads more bytes into the buffer; `false` at end of stream, on an error,
  /// or when the server stopped.
  private mutating func read() -> Bool {
    guard case .ready = SocketCalls.wait(for: Int16(POLLIN), on: fd, orStop: core.stopSignal.readFD, timeout: nil)
    else { return false }
    return SocketCalls.receive(from: fd, appendingTo: &buffer) > 0
  }

  /// Answers an unreadable request with its status and closes.
  private func reject(_ error: HTTPRequestError) -> Ending {
    SocketCalls.sendAll(HTTPResponseEncoder.rejection(error), to: fd) ? .closeGracefully : .abort
  }

  /// Waits as long as `response` asks before it is sent, watching for the
  /// client going away and for the server stopping.
  private func pause(before response: TestHTTPResponse) -> Pause {
    let timeout: Duration? = response.hangsUntilStopped ? nil : response.delay
    if timeout == .zero { return core.isStopped ? .stopped : .elapsed }
    let events = SocketCalls.pollPeerClosed
    switch SocketCalls.wait(for: events, on: fd, orStop: core.stopSignal.readFD, timeout: timeout) {
    case .timedOut: return .elapsed
    case .stopped: return .stopped
    case .ready: return .clientGone
    }
  }
}
