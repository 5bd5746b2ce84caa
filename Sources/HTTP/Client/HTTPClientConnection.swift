import Glibc
import Platform

/// One HTTP/1.1 connection to a server, for requests one after another,
/// each answer read whole (`Content-Length`, chunked, or until the server
/// closes) or as a stream of lines (a chunked answer that does not end, such
/// as etcd's watch).
///
/// Used from one thread at a time; not `Sendable`.
public final class HTTPClientConnection {
  public let host: String
  public let port: UInt16
  private let descriptor: Int32
  private var isClosed = false
  /// Bytes read off the socket and not yet taken.
  private var raw: [UInt8] = []
  /// A streamed answer's body, its chunks decoded, not yet taken.
  private var body: [UInt8] = []
  /// While a chunked answer streams: the bytes left of the current chunk,
  /// nil between chunks.
  private var chunkLeft: Int?
  private var streamEnded = false
  /// Whether the streamed answer is chunked; if not, it runs until the
  /// server closes.
  private var streamIsChunked = false

  /// The largest answer read whole; a larger one is `malformed`.
  public static let maximumBody = 64 << 20

  /// Connects to `host` (an IPv4 address) at `port`, waiting at most
  /// `timeout`.
  public init(host: String, port: UInt16, timeout: Duration) throws(HTTPClientError) {
    self.host = host
    self.port = port
    do {
      descriptor = try SocketCalls.connect(host: host, port: port, timeout: timeout)
    } catch {
      throw .connect(error)
    }
  }

  deinit { close() }

  public func close() {
    guard !isClosed else { return }
    isClosed = true
    Glibc.close(descriptor)
  }

  /// Sends `method` `path` with `body` (as JSON unless `contentType` says
  /// otherwise) and reads the whole answer by `deadline`.
  public func request(
    _ method: String, _ path: String, body: [UInt8] = [], contentType: String = "application/json",
    until deadline: ContinuousClock.Instant
  ) throws(HTTPClientError) -> HTTPClientResponse {
    try send(method, path, body: body, contentType: contentType, until: deadline)
    var response = try readHead(until: deadline)
    if let length = response.contentLength {
      guard length <= Self.maximumBody else { throw .malformed("an answer of \(length) bytes is too large") }
      while raw.count < length { try fill(until: deadline) }
      response.body = Array(raw[..<length])
      raw.removeFirst(length)
    } else if response.isChunked {
      startBody(chunked: true)
      while try readChunked(until: deadline) {
        guard self.body.count <= Self.maximumBody else {
          throw .malformed("a chunked answer past \(Self.maximumBody) bytes")
        }
      }
      response.body = self.body
      self.body = []
    } else {
      while (try? fill(until: deadline)) != nil {}
      response.body = raw
      raw = []
      close()
    }
    if response.header("Connection")?.lowercased() == "close" { close() }
    return response
  }

  /// Sends `method` `path` with `body` and reads the answer's head by
  /// `deadline`; its body then comes a line at a time from
  /// ``nextLine(until:)``.
  public func openStream(
    _ method: String, _ path: String, body: [UInt8] = [], contentType: String = "application/json",
    until deadline: ContinuousClock.Instant
  ) throws(HTTPClientError) -> HTTPClientResponse {
    try send(method, path, body: body, contentType: contentType, until: deadline)
    let head = try readHead(until: deadline)
    startBody(chunked: head.isChunked)
    return head
  }

  /// Readies the decoding of an answer's body, after its head.
  private func startBody(chunked: Bool) {
    chunkLeft = nil
    streamEnded = false
    streamIsChunked = chunked
    body = []
  }

  /// The next line of a streamed answer's body, without its end; nil when
  /// the deadline passed with none whole. Throws `closed` once the answer or
  /// the connection ended.
  public func nextLine(until deadline: ContinuousClock.Instant) throws(HTTPClientError) -> [UInt8]? {
    while true {
      if let newline = body.firstIndex(of: UInt8(ascii: "\n")) {
        var line = Array(body[..<newline])
        body.removeFirst(newline + 1)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
      }
      if streamEnded { throw .closed("\(host):\(port) ended the stream") }
      do {
        if streamIsChunked {
          _ = try readChunked(until: deadline)
        } else {
          if raw.isEmpty { try fill(until: deadline) }
          body.append(contentsOf: raw)
          raw = []
        }
      } catch .timedOut {
        return nil
      }
    }
  }

  // MARK: -

  private func send(
    _ method: String, _ path: String, body: [UInt8], contentType: String, until deadline: ContinuousClock.Instant
  ) throws(HTTPClientError) {
    guard !isClosed else { throw .closed("the connection to \(host):\(port) is closed") }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
    if !body.isEmpty || method == "POST" || method == "PUT" {
      head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
    }
    head += "\r\n"
    // No stop signal: poll(2) ignores a negative descriptor.
    guard
      SocketCalls.sendAll(Array(head.utf8) + body, to: descriptor, orStop: -1, timeout: max(deadline - .now, .zero))
    else { throw .closed("\(host):\(port) did not take the request") }
  }

  private func readHead(until deadline: ContinuousClock.Instant) throws(HTTPClientError) -> HTTPClientResponse {
    while true {
      if let end = HTTPRequestParser.headEnd(in: raw) {
        let head = try HTTPClientResponse.parseHead(raw[..<end])
        raw.removeFirst(end)
        return head
      }
      guard raw.count < 64 * 1024 else { throw .malformed("\(host):\(port) sent a head over 64 KiB") }
      try fill(until: deadline)
    }
  }

  /// Decodes what can be of a chunked body into `body`; returns whether
  /// more is to come (false once the last chunk is read).
  private func readChunked(until deadline: ContinuousClock.Instant) throws(HTTPClientError) -> Bool {
    while true {
      if let left = chunkLeft {
        let take = min(left, raw.count)
        body.append(contentsOf: raw[..<take])
        raw.removeFirst(take)
        chunkLeft = left - take
        if chunkLeft == 0 {
          // The chunk's CRLF.
          while raw.count < 2 { try fill(until: deadline) }
          raw.removeFirst(2)
          chunkLeft = nil
        }
        if take > 0 { return true }
        try fill(until: deadline)
        continue
      }
      guard let lineEnd = raw.firstIndex(of: UInt8(ascii: "\n")) else {
        guard raw.count < 1024 else { throw .malformed("a chunk size line over 1 KiB") }
        try fill(until: deadline)
        continue
      }
      let line = String(decoding: raw[..<lineEnd], as: UTF8.self)
      raw.removeFirst(lineEnd + 1)
      let sizeText = line.split(separator: ";").first.map { $0.trimmingWhitespace } ?? ""
      guard let size = Int(sizeText.filter { $0 != "\r" }, radix: 16), size >= 0 else {
        throw .malformed("a chunk size that is not hexadecimal: \(line.prefix(40))")
      }
      if size == 0 {
        // Trailer fields, then the empty line.
        while true {
          guard let end = raw.firstIndex(of: UInt8(ascii: "\n")) else {
            try fill(until: deadline)
            continue
          }
          let isEmpty = end == 0 || (end == 1 && raw[0] == UInt8(ascii: "\r"))
          raw.removeFirst(end + 1)
          if isEmpty { break }
        }
        streamEnded = true
        return false
      }
      chunkLeft = size
    }
  }

  /// Reads more into `raw`, waiting until `deadline`.
  private func fill(until deadline: ContinuousClock.Instant) throws(HTTPClientError) {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let left = deadline - .now
      guard left > .zero else { throw .timedOut("\(host):\(port) did not answer in time") }
      let ready = poll(&poller, 1, Readiness.milliseconds(until: deadline))
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 { continue }
      break
    }
    let count = SocketCalls.receive(from: descriptor, appendingTo: &raw)
    guard count > 0 else { throw .closed("\(host):\(port) closed the connection") }
  }
}
