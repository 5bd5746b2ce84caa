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
/// - Served beyond the loopback interface, or behind a proxy
///   (`--public-origin`), every request but the login page's must carry the
///   token: the cookie the login sets, or `Authorization: Bearer TOKEN`.
///
/// Behind a reverse proxy that terminates TLS, the browser names the public
/// origin (`https://shop.example.com`): its host is this server's too, and
/// a request from it must come with that origin, `https` and all.
struct WebAccess: Sendable {
  /// The `host:port` names a browser may use for this server.
  let hosts: Set<String>
  /// The token a person must give; nil on the loopback interface.
  let token: String?
  /// The origin browsers reach this server at through a proxy, and its host.
  let publicOrigin: PublicOrigin?

  static let cookieName = "tcaweb_token"

  init(host: String, port: UInt16, token: String?, publicOrigin: PublicOrigin? = nil) {
    var hosts: Set<String> = ["\(host):\(port)"]
    if host.hasPrefix("127.") { hosts.formUnion(["localhost:\(port)", "127.0.0.1:\(port)"]) }
    if let publicOrigin { hosts.insert(publicOrigin.host) }
    self.hosts = hosts
    self.token = token
    self.publicOrigin = publicOrigin
  }

  /// The origin a page served under `host` has.
  func origin(ofPageAt host: String) -> String {
    if let publicOrigin, host == publicOrigin.host { return publicOrigin.origin }
    return "http://\(host)"
  }

  /// What the sign-in's cookie says beside the token: `Secure` when pages
  /// are served over HTTPS, so that the browser never sends it in clear.
  var cookieAttributes: String {
    "Path=/; HttpOnly; SameSite=Strict" + (publicOrigin?.isSecure == true ? "; Secure" : "")
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
      if let origin = request.header("Origin"), origin.lowercased() != self.origin(ofPageAt: host.lowercased()) {
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

/// `--public-origin`: where browsers reach tcaweb through a reverse proxy,
/// `https://HOST[:PORT]` (or `http://`), read as a browser writes an origin.
struct PublicOrigin: Equatable, Sendable {
  /// The origin, lower-cased, as browsers send it in `Origin`.
  let origin: String
  /// Its `host[:port]`, as browsers send it in `Host` (the default port left out).
  let host: String
  let isSecure: Bool

  /// Reads `text`; nil when it is not an origin (a scheme other than http
  /// or https, a path, a user, nothing after the scheme).
  init?(_ text: String) {
    let lowered = text.lowercased()
    let secure = lowered.hasPrefix("https://")
    guard secure || lowered.hasPrefix("http://") else { return nil }
    var host = String(lowered.dropFirst(secure ? 8 : 7))
    if host.hasSuffix("/") { host.removeLast() }
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
    guard !host.isEmpty, host.allSatisfy({ allowed.contains($0) }), !host.hasPrefix(":") else { return nil }
    if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
      guard let port = UInt16(host[host.index(after: colon)...]), port > 0 else { return nil }
      if port == (secure ? 443 : 80) { host = String(host[..<colon]) }
    }
    self.host = host
    self.origin = (secure ? "https://" : "http://") + host
    self.isSecure = secure
  }
}
