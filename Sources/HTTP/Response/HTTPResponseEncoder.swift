/// Writes answers as HTTP/1.1 bytes: the status line, the handler's fields,
/// then `Content-Length` and `Connection` as the server decides them, and
/// the body where one is allowed (RFC 9112 §6, RFC 9110 §8.6).
public enum HTTPResponseEncoder {
  /// Fields the server writes itself; a handler's copies are dropped.
  private static let serverFields: Set<String> = ["content-length", "connection", "transfer-encoding"]

  /// The head of an answer: the status line and fields, ending with the
  /// empty line; `contentLength` nil for a body that runs until the
  /// connection closes (an event stream).
  public static func head(status: Int, headers: [HTTPHeader], contentLength: Int?, closing: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(HTTPStatusReason.phrase(for: status))\r\n"
    for field in headers where !serverFields.contains(field.name.lowercased()) {
      head += "\(field.name): \(field.value)\r\n"
    }
    if let contentLength { head += "Content-Length: \(contentLength)\r\n" }
    head += closing ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
    head += "\r\n"
    return Array(head.utf8)
  }

  /// The bytes of an answer with `body` to a request made with `method`
  /// (nil when the request could not be read): no `Content-Length` on 1xx
  /// and 204, no body on those, on 304, or to `HEAD`.
  public static func encode(
    status: Int, headers: [HTTPHeader], body: [UInt8], method: String?, closing: Bool
  ) -> [UInt8] {
    let hasNoContent = (100..<200).contains(status) || status == 204 || status == 304
    var bytes = head(status: status, headers: headers, contentLength: hasNoContent ? nil : body.count, closing: closing)
    if !hasNoContent && method != "HEAD" { bytes.append(contentsOf: body) }
    return bytes
  }

  /// The answer to a request that could not be read, which closes the
  /// connection: its status, and the reason as plain text.
  public static func rejection(_ error: HTTPRequestError) -> [UInt8] {
    let body = "\(error.status) \(HTTPStatusReason.phrase(for: error.status)): \(error.reason)\n"
    return encode(
      status: error.status, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")],
      body: Array(body.utf8), method: nil, closing: true)
  }

  /// The interim answer a client sending `Expect: 100-continue` waits for.
  public static let continueInterim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
