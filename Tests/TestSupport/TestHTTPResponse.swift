import Foundation
import HTTP

/// What ``TestHTTPServer`` answers to one request: a status, header fields and
/// a body, sent with a `Content-Length`, at once, after ``delay``, or never
/// (``hangsUntilStopped``) so a test can exercise timeouts and cancellation.
public struct TestHTTPResponse: Hashable, Sendable {
  /// The status code, e.g. 200.
  public var status: Int
  /// Header fields to send. The server writes `Content-Length` and
  /// `Connection` itself and drops any given here; a `Connection: close`
  /// given here still makes the server close after the answer.
  public var headers: [HTTPHeader]
  /// The body; the server sends none for `HEAD` requests and 1xx, 204 and 304 answers.
  public var body: Data
  /// How long the server waits before answering. The wait ends early, without
  /// an answer, when the server stops or the client goes away.
  public var delay: Duration
  /// Whether the server never answers: it holds the connection until it stops
  /// or the client goes away.
  public var hangsUntilStopped: Bool

  public init(
    status: Int = 200, headers: [HTTPHeader] = [], body: Data = Data(), delay: Duration = .zero,
    hangsUntilStopped: Bool = false
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.delay = delay
    self.hangsUntilStopped = hangsUntilStopped
  }

  /// A `text/plain; charset=utf-8` answer.
  public static func text(_ text: String, status: Int = 200) -> Self {
    Self(status: status, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
  }

  /// An `application/json` answer whose body is `json`, verbatim.
  public static func json(_ json: String, status: Int = 200) -> Self {
    Self(
      status: status, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")],
      body: Data(json.utf8))
  }

  /// An `application/json` answer whose body is `value` encoded with sorted keys.
  public static func json(encoding value: some Encodable, status: Int = 200) throws -> Self {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return json(String(decoding: try encoder.encode(value), as: UTF8.self), status: status)
  }

  /// `status` with its reason phrase as a plain-text body, e.g. "404 Not Found".
  public static func status(_ status: Int) -> Self {
    text("\(status) \(HTTPStatusReason.phrase(for: status))\n", status: status)
  }

  /// An answer that never comes: the connection is held until the server
  /// stops or the client goes away.
  public static var hang: Self { Self(status: 200, hangsUntilStopped: true) }

  /// This answer, sent `delay` late.
  public func delayed(by delay: Duration) -> Self {
    var copy = self
    copy.delay = delay
    return copy
  }
}

extension TestHTTPResponse {
  /// The bytes of this answer to a request made with `method`.
  func encoded(method: String?, closing: Bool) -> [UInt8] {
    HTTPResponseEncoder.encode(status: status, headers: headers, body: Array(body), method: method, closing: closing)
  }

  /// Whether the handler asked for the connection to close after this answer.
  var asksToClose: Bool {
    headers.values(for: "Connection")
      .flatMap { $0.split(separator: ",") }
      .contains { $0.trimmingWhitespace.lowercased() == "close" }
  }
}
