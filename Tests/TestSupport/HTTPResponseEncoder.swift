/// Writes a ``TestHTTPResponse`` as HTTP/1.1 bytes: the status line, the
/// handler's fields, then `Content-Length` and `Connection` as the server
/// decides them, and the body where one is allowed.
enum HTTPResponseEncoder {
  /// Fields the server writes itself; the handler's copies are dropped.
  private static let serverFields: Set<String> = ["content-length", "connection", "transfer-encoding"]

  /// The bytes of `response` to a request made with `method`.
  static func encode(_ response: TestHTTPResponse, method: String?, closing: Bool) -> [UInt8] {
    let status = response.status
    var head = "HTTP/1.1 \(status) \(HTTPStatusReason.phrase(for: status))\r\n"
    for field in response.headers where !serverFields.contains(field.name.lowercased()) {
      head += "\(field.name): \(field.value)\r\n"
    }
    // RFC 9110 §8.6: no Content-Length on 1xx and 204; 304 sends no body.
    let hasNoContent = (100..<200).contains(status) || status == 204 || status == 304
    if !hasNoContent { head += "Content-Length: \(response.body.count)\r\n" }
    head += closing ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
    head += "\r\n"
    var bytes = Array(head.utf8)
    if !hasNoContent && method != "HEAD" { bytes.append(contentsOf: response.body) }
    return bytes
  }

  /// Whether the handler asked for the connection to close after `response`.
  static func asksToClose(_ response: TestHTTPResponse) -> Bool {
    response.headers.values(for: "Connection")
      .flatMap { $0.split(separator: ",") }
      .contains { $0.trimmingWhitespace.lowercased() == "close" }
  }

  /// The answer to a request that could not be read.
  static func rejection(_ error: HTTPRequestError) -> [UInt8] {
    let body = "\(error.status) \(HTTPStatusReason.phrase(for: error.status)): \(error.reason)\n"
    return encode(.text(body, status: error.status), method: nil, closing: true)
  }

  /// The interim answer a client sending `Expect: 100-continue` waits for.
  static let continueInterim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
