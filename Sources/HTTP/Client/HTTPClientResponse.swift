/// An answer as a client reads it: its status, header fields and body.
public struct HTTPClientResponse: Sendable {
  public var status: Int
  public var headers: [HTTPHeader]
  public var body: [UInt8]

  /// The value of the first field named `name` (case-insensitive).
  public func header(_ name: String) -> String? { headers.value(for: name) }

  var contentLength: Int? { header("Content-Length").flatMap { Int($0.trimmingWhitespace) } }
  var isChunked: Bool { header("Transfer-Encoding")?.lowercased().contains("chunked") == true }

  /// Reads a status line and fields (RFC 9112 §4, §5).
  static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPClientError) -> HTTPClientResponse {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
      Substring(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let statusLine = lines.first else { throw .malformed("an empty answer") }
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status)
    else { throw .malformed("not an HTTP/1.1 status line: \(statusLine.prefix(80))") }
    var headers: [HTTPHeader] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else {
        throw .malformed("a field without a colon: \(line.prefix(80))")
      }
      headers.append(HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmingWhitespace))
    }
    return HTTPClientResponse(status: status, headers: headers, body: [])
  }
}
