/// What a handler answers: a status, header fields, and a body that is
/// either bytes, sent with a `Content-Length`, or a stream the handler
/// writes for as long as it likes (server-sent events), after which the
/// connection closes.
public struct HTTPResponse: Sendable {
  /// How the body is sent.
  public enum Body: Sendable {
    /// These bytes, with a `Content-Length`.
    case bytes([UInt8])
    /// Written by the closure, on the connection's thread, through the
    /// writer it is given, until it returns or a write fails; no
    /// `Content-Length`, and the connection closes after it.
    case stream(@Sendable (HTTPStreamWriter) -> Void)
  }

  /// The status code, e.g. 200.
  public var status: Int
  /// Header fields to send. The server writes `Content-Length` and
  /// `Connection` itself and drops any given here.
  public var headers: [HTTPHeader]
  public var body: Body

  public init(status: Int = 200, headers: [HTTPHeader] = [], body: Body = .bytes([])) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// An answer of `contentType` whose body is `bytes`.
  public static func bytes(_ bytes: [UInt8], contentType: String, status: Int = 200) -> Self {
    Self(status: status, headers: [HTTPHeader("Content-Type", contentType)], body: .bytes(bytes))
  }

  /// A `text/plain; charset=utf-8` answer.
  public static func text(_ text: String, status: Int = 200) -> Self {
    bytes(Array(text.utf8), contentType: "text/plain; charset=utf-8", status: status)
  }

  /// An `application/json` answer whose body is `json`, verbatim.
  public static func json(_ json: [UInt8], status: Int = 200) -> Self {
    bytes(json, contentType: "application/json", status: status)
  }

  /// `status` with its reason phrase and `reason` as a plain-text body, e.g.
  /// `404 Not Found: no page /x`.
  public static func status(_ status: Int, _ reason: String) -> Self {
    text("\(status) \(HTTPStatusReason.phrase(for: status)): \(reason)\n", status: status)
  }

  /// A stream of server-sent events (`text/event-stream`), written by
  /// `write`.
  public static func eventStream(_ write: @escaping @Sendable (HTTPStreamWriter) -> Void) -> Self {
    Self(
      status: 200,
      headers: [HTTPHeader("Content-Type", "text/event-stream"), HTTPHeader("Cache-Control", "no-store")],
      body: .stream(write))
  }

  /// This answer with `header` added.
  public func adding(_ name: String, _ value: String) -> Self {
    var copy = self
    copy.headers.append(HTTPHeader(name, value))
    return copy
  }
}
