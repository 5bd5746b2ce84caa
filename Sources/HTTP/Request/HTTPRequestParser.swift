/// Reads HTTP/1.x request heads (RFC 9112 §2–§6) from bytes: finds where a
/// head ends, parses its request line and fields, and says how long the body
/// is. Strict where a lenient reading could let a request mean two things (a
/// malformed line, obsolete folding, a bad or repeated `Content-Length`, a
/// chunked body), lenient where nothing is at stake (bare LF line ends).
public enum HTTPRequestParser {
  /// The index just past the empty line that ends the head starting at
  /// `bytes.startIndex`, or `nil` if the head has not fully arrived. Scanning
  /// starts at `resumeAt`, where a previous scan stopped.
  public static func headEnd(in bytes: [UInt8], resumeAt: Int = 0) -> Int? {
    let newline = UInt8(ascii: "\n")
    let carriageReturn = UInt8(ascii: "\r")
    var index = max(bytes.startIndex, resumeAt)
    while index < bytes.endIndex {
      defer { index += 1 }
      guard bytes[index] == newline else { continue }
      let next = index + 1
      if next < bytes.endIndex, bytes[next] == newline { return next + 1 }
      if next + 1 < bytes.endIndex, bytes[next] == carriageReturn, bytes[next + 1] == newline { return next + 2 }
    }
    return nil
  }

  /// Where a scan of `count` bytes that found no head end should resume, so a
  /// terminator split across reads is still found.
  public static func resumePoint(afterScanning count: Int) -> Int { max(0, count - 3) }

  /// How many leading empty lines `bytes` starts with, in bytes: RFC 9112 §2.2
  /// asks servers to ignore empty lines before a request line.
  public static func leadingEmptyLines(in bytes: [UInt8]) -> Int {
    var count = 0
    while count < bytes.count, bytes[count] == UInt8(ascii: "\r") || bytes[count] == UInt8(ascii: "\n") {
      count += 1
    }
    return count
  }

  /// Where the head at the start of `buffer` ends, once it has all
  /// arrived: drops the empty lines a client may send before a request,
  /// then looks from `resumeAt`, which it moves on for the next look when
  /// the head is not all there yet (nil).
  ///
  /// - Throws: 431 once the head is past `limits`, whole or not.
  public static func takeHeadEnd(
    in buffer: inout [UInt8], resumeAt: inout Int, limits: HTTPLimits
  ) throws(HTTPRequestError) -> Int? {
    let emptyLines = leadingEmptyLines(in: buffer)
    if emptyLines > 0 {
      buffer.removeFirst(emptyLines)
      resumeAt = 0
    }
    let end = buffer.isEmpty ? nil : headEnd(in: buffer, resumeAt: resumeAt)
    if let end, end <= limits.maximumHeadBytes { return end }
    guard end == nil, buffer.count <= limits.maximumHeadBytes else {
      throw HTTPRequestError(431, "the request head is over \(limits.maximumHeadBytes) bytes")
    }
    resumeAt = resumePoint(afterScanning: buffer.count)
    return nil
  }

  /// Parses a complete head (request line, fields, the empty line).
  ///
  /// - Throws: 400 for a malformed request line or field, 431 for more
  ///   fields than `limits` allow, 505 for a version other than HTTP/1.0
  ///   and HTTP/1.1.
  public static func parseHead(
    _ bytes: ArraySlice<UInt8>, limits: HTTPLimits = HTTPLimits()
  ) throws(HTTPRequestError) -> HTTPRequestHead {
    // Split as bytes: in a Swift String "\r\n" is one Character, not two.
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
      Substring(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else { throw HTTPRequestError(400, "empty request") }
    guard lines.count - 1 <= limits.maximumHeaderFields else {
      throw HTTPRequestError(
        431, "the request has \(lines.count - 1) header fields; at most \(limits.maximumHeaderFields) are accepted")
    }

    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw HTTPRequestError(400, "request line is not 'METHOD target HTTP/1.1': \(requestLine.prefix(100))")
    }
    let (method, target, version) = (String(parts[0]), String(parts[1]), String(parts[2]))
    guard isToken(method) else { throw HTTPRequestError(400, "invalid method \(method.prefix(40))") }
    guard target.hasPrefix("/") || target.hasPrefix("http://") || target.hasPrefix("https://") || target == "*",
      !target.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true })
    else { throw HTTPRequestError(400, "invalid request target \(target.prefix(100))") }
    guard version.hasPrefix("HTTP/") else { throw HTTPRequestError(400, "invalid HTTP version \(version.prefix(20))") }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      throw HTTPRequestError(505, "only HTTP/1.0 and HTTP/1.1 are served, not \(version.prefix(20))")
    }

    var headers: [HTTPHeader] = []
    for line in lines.dropFirst() {
      guard let first = line.first else { throw HTTPRequestError(400, "empty line inside the header fields") }
      guard first != " ", first != "\t" else { throw HTTPRequestError(400, "obsolete line folding in header fields") }
      guard let colon = line.firstIndex(of: ":") else {
        throw HTTPRequestError(400, "header line without a colon: \(line.prefix(100))")
      }
      let name = String(line[..<colon])
      guard isToken(name) else { throw HTTPRequestError(400, "invalid header name \(name.prefix(40))") }
      headers.append(HTTPHeader(name, line[line.index(after: colon)...].trimmingWhitespace))
    }
    return HTTPRequestHead(method: method, target: target, version: version, headers: headers)
  }

  /// The body's length from `Content-Length` (0 without one). A
  /// `Transfer-Encoding` body is refused (501): the server reads
  /// `Content-Length` bodies only, which is what HTTP clients send for a body
  /// they hold in memory.
  ///
  /// - Throws: 400 for a malformed or conflicting `Content-Length`, 413 for a
  ///   body over `limits`, 501 for `Transfer-Encoding`.
  public static func bodyLength(
    of head: HTTPRequestHead, limits: HTTPLimits = HTTPLimits()
  ) throws(HTTPRequestError) -> Int {
    if head.headers.value(for: "Transfer-Encoding") != nil {
      throw HTTPRequestError(501, "Transfer-Encoding bodies are not supported; send a Content-Length")
    }
    let values = head.headers.values(for: "Content-Length")
      .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      .map { $0.trimmingWhitespace }
    guard let first = values.first else { return 0 }
    guard values.allSatisfy({ $0 == first }) else {
      throw HTTPRequestError(400, "conflicting Content-Length values \(values)")
    }
    guard !first.isEmpty, first.count <= 18, first.allSatisfy(\.isASCIIDigit), let length = Int(first) else {
      throw HTTPRequestError(400, "invalid Content-Length \(first.prefix(40))")
    }
    guard length <= limits.maximumBodyBytes else {
      throw HTTPRequestError(413, "a body of \(length) bytes is over the \(limits.maximumBodyBytes)-byte limit")
    }
    return length
  }

  /// Whether `text` is an RFC 9110 token: one or more visible ASCII characters
  /// other than delimiters.
  public static func isToken(_ text: some StringProtocol) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          true
        default:
          "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}

extension Character {
  /// Whether this is one of the ASCII digits 0–9.
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
