import HTTP
import Platform

/// Who may use the web client, checked on every request before anything
/// reaches the daemon (docs/WEB.md, "Security").
///
/// - The `Host` a browser names must be this server's (a page on another
///   site whose name was pointed at 127.0.0.1, DNS rebinding, is refused).
/// - A request that changes something is a `POST` whose `Origin`, when the
///   browser gives one, is this server's own: another site's page cannot
///   send actions through a visitor's browser. Its body is JSON, which a
///   cross-site form cannot send without the browser asking first.
/// - Served beyond the loopback interface, every request but the login
///   page's must carry the token: the cookie the login sets, or
///   `Authorization: Bearer TOKEN`.
struct WebAccess: Sendable {
  /// The `host:port` names a browser may use for this server.
  let hosts: Set<String>
  /// The token a person must give; nil on the loopback interface.
  let token: String?

  static let cookieName = "tcaweb_token"

  init(host: String, port: UInt16, token: String?) {
    var hosts: Set<String> = ["\(host):\(port)"]
    if host.hasPrefix("127.") { hosts.formUnion(["localhost:\(port)", "127.0.0.1:\(port)"]) }
    self.hosts = hosts
    self.token = token
  }

  /// Why `request` may not go further, as the answer to give; nil when it
  /// may.
  func refusal(of request: HTTPRequest, changesSomething: Bool) -> HTTPResponse? {
    guard let host = request.header("Host"), hosts.contains(host.lowercased()) else {
      return .status(
        403,
        "the Host '\(request.header("Host")?.prefix(100) ?? "")' is not this server's; use one of \(hosts.sorted())")
    }
    if changesSomething {
      if let origin = request.header("Origin"), origin.lowercased() != "http://\(host.lowercased())" {
        return .status(403, "a request from the page at \(origin.prefix(100)) may not change anything here")
      }
      guard request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true else {
        return .status(415, "the body must be JSON, sent with Content-Type: application/json")
      }
    }
    if let token, !carriesToken(request, token) {
      return .status(401, "give the token first: open /login")
    }
    return nil
  }

  /// Whether `request` carries `token`, in its cookie or as a bearer token,
  /// compared in time that does not depend on where they differ.
  func carriesToken(_ request: HTTPRequest, _ token: String) -> Bool {
    var given: [String] = []
    if let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer ") {
      given.append(String(authorization.dropFirst("Bearer ".count)))
    }
    for field in request.head.headers where field.name.lowercased() == "cookie" {
      for pair in field.value.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
        if parts.count == 2, parts[0] == Self.cookieName { given.append(parts[1]) }
      }
    }
    return given.contains { TokenFile.matches($0, token) }
  }
}
