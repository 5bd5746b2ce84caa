/// One whole request as the server read it: its head, its target split, and
/// its body.
public struct HTTPRequest: Sendable {
  public var head: HTTPRequestHead
  /// The target's decoded path and query.
  public var target: HTTPRequestTarget
  /// The body, `Content-Length` bytes (empty without one).
  public var body: [UInt8]

  public init(head: HTTPRequestHead, body: [UInt8] = []) {
    self.head = head
    self.target = HTTPRequestTarget(head.target)
    self.body = body
  }

  /// `GET`, `POST`, …
  public var method: String { head.method }
  /// The target's decoded path, e.g. `/api/state`.
  public var path: String { target.path }

  /// The value of the first header field named `name` (case-insensitive).
  public func header(_ name: String) -> String? { head.headers.value(for: name) }

  /// The value of the first query item named `name` (`""` for a bare name).
  public func query(_ name: String) -> String? { target.value(for: name) }
}
