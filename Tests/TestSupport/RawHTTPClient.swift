import Glibc
import HTTP
import Platform

/// A client on a bare TCP socket, for what URLSession cannot do on purpose:
/// keep-alive on one known connection, pipelining, malformed requests,
/// disconnecting halfway. Reads time out after 60 s, long enough for a busy
/// machine, so that a test never hangs.
public final class RawHTTPClient {
  /// One answer as read off the wire.
  public struct Response: Equatable {
    public var statusLine: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public var status: Int { Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 }
    public var text: String { String(decoding: body, as: UTF8.self) }
    public func header(_ name: String) -> String? { headers.value(for: name) }
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  private let fd: Int32
  private var buffer: [UInt8] = []
  private var isClosed = false

  /// Connects to 127.0.0.1:`port`; throws with the errno when refused.
  public init(port: UInt16) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      // Through `close()`, which marks it closed: `deinit` runs as this
      // initializer throws, and a second close could take a descriptor
      // another thread has opened with the same number meanwhile.
      close()
      throw ConnectError(code: code)
    }
  }

  /// Why connecting failed.
  public struct ConnectError: Error { public var code: Int32 }

  deinit { close() }

  /// Closes the connection (a client walking away).
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    Glibc.close(fd)
  }

  /// Writes `text` as it is.
  public func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  /// Writes `bytes` as they are.
  public func send(_ bytes: [UInt8]) throws {
    guard SocketCalls.sendAll(bytes, to: fd) else { throw Failure(description: "send failed: errno \(errno)") }
  }

  /// Reads one answer (status line, fields, `Content-Length` body); `nil` if
  /// the server closed the connection before sending anything.
  public func readResponse(toHead: Bool = false) throws -> Response? {
    var headEnd: Int? = HTTPRequestParser.headEnd(in: buffer)
    while headEnd == nil {
      guard try fill() else {
        if buffer.isEmpty { return nil }
        throw Failure(description: "connection closed inside an answer: \(String(decoding: buffer, as: UTF8.self))")
      }
      headEnd = HTTPRequestParser.headEnd(in: buffer)
    }
    let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
    buffer.removeFirst(headEnd!)
    let lines = head.split(separator: "\r\n").map(String.init)
    let headers = lines.dropFirst().compactMap { line -> HTTPHeader? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmingWhitespace)
    }
    let length = toHead ? 0 : Int(headers.value(for: "Content-Length") ?? "0") ?? 0
    while buffer.count < length {
      guard try fill() else { throw Failure(description: "connection closed inside a body") }
    }
    let body = Array(buffer[..<length])
    buffer.removeFirst(length)
    return Response(statusLine: lines.first ?? "", headers: headers, body: body)
  }

  /// Whether the server closes the connection (end of stream, or a reset)
  /// with nothing more to read.
  public func serverClosed() throws -> Bool {
    try buffer.isEmpty && !fill()
  }

  /// Reads a stream's body until `done` holds for what has arrived of it,
  /// or the server closes; returns what arrived. A stream sends no
  /// `Content-Length`, so what follows its head is read as it comes.
  public func readStream(until done: (String) -> Bool) throws -> String {
    while !done(String(decoding: buffer, as: UTF8.self)) {
      guard try fill() else { break }
    }
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Reads more; `false` at end of stream or on a reset.
  private func fill() throws -> Bool {
    let count = SocketCalls.receive(from: fd, appendingTo: &buffer)
    if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
      throw Failure(description: "no answer within 60 s")
    }
    return count > 0
  }
}
