import HTTP
import JSON
import Platform

/// What the web client serves, by method and path (docs/WEB.md, "Routes").
struct WebRoutes: Sendable {
  let access: WebAccess
  let requests: DaemonRequests
  let events: StateEvents
  let log: LogEvents
  let metrics: WebMetrics

  /// The pages and their scripts and styles, built into the program.
  static let assets: [String: (bytes: [UInt8], type: String)] = [
    "/": (PackageResources.index_html, "text/html; charset=utf-8"),
    "/app.js": (PackageResources.app_js, "text/javascript; charset=utf-8"),
    "/screens.js": (PackageResources.screens_js, "text/javascript; charset=utf-8"),
    "/inspector.js": (PackageResources.inspector_js, "text/javascript; charset=utf-8"),
    "/style.css": (PackageResources.style_css, "text/css; charset=utf-8"),
    "/login": (PackageResources.login_html, "text/html; charset=utf-8"),
  ]

  func answer(_ request: HTTPRequest) -> HTTPResponse {
    let started = MonotonicClock.now()
    var response = route(request)
    metrics.count(
      path: request.path, status: response.status,
      seconds: MonotonicClock.seconds(from: started, to: MonotonicClock.now()))
    if case .stream(let write) = response.body {
      let kind = request.path == "/events/log" ? "log" : "state"
      response.body = .stream { [metrics] writer in metrics.streaming(kind) { write(writer) } }
    }
    // The pages are this server's alone: no framing by other sites, no
    // scripts but its own.
    return
      response
      .adding("X-Content-Type-Options", "nosniff")
      .adding("X-Frame-Options", "DENY")
      .adding("Referrer-Policy", "no-referrer")
      .adding(
        "Content-Security-Policy",
        "default-src 'self'; img-src * data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
  }

  private func route(_ request: HTTPRequest) -> HTTPResponse {
    switch (request.method, request.path) {
    case ("GET", "/login"), ("HEAD", "/login"):
      if let refusal = access.refusal(of: request, changesSomething: false), refusal.status != 401 { return refusal }
      return asset("/login")
    case ("POST", "/login"):
      return login(request)
    case ("GET", "/events"):
      if let refusal = access.refusal(of: request, changesSomething: false) { return refusal }
      return events.answer(request)
    case ("GET", "/events/log"):
      if let refusal = access.refusal(of: request, changesSomething: false) { return refusal }
      return log.answer(request)
    case ("POST", "/api/request"):
      if let refusal = access.refusal(of: request, changesSomething: true) { return refusal }
      return requests.answer(request.body)
    case (_, "/api/request"):
      return .status(405, "\(request.method.prefix(20)) is not served here; use POST").adding("Allow", "POST")
    case (_, "/login"):
      return .status(405, "\(request.method.prefix(20)) is not served here; use GET or POST").adding(
        "Allow", "GET, HEAD, POST")
    case (_, "/events"), (_, "/events/log"):
      return .status(405, "\(request.method.prefix(20)) is not served here; use GET").adding("Allow", "GET")
    case ("GET", let path), ("HEAD", let path):
      guard Self.assets[path] != nil else {
        return .status(404, "there is no page \(path.prefix(200)); the apps are at /")
      }
      // The scripts and styles hold nothing of the state, and the sign-in
      // page needs them before it has the token; the page itself sends a
      // person without one to sign in.
      if let refusal = access.refusal(of: request, changesSomething: false), refusal.status != 401 || path == "/" {
        return refusal.status == 401 ? Self.redirect(to: "/login") : refusal
      }
      return asset(path)
    default:
      guard Self.assets[request.path] != nil else {
        return .status(404, "there is no page \(request.path.prefix(200)); the apps are at /")
      }
      return .status(405, "\(request.method.prefix(20)) is not served here; use GET").adding("Allow", "GET, HEAD")
    }
  }

  private func asset(_ path: String) -> HTTPResponse {
    guard let asset = Self.assets[path] else { return .status(404, "there is no page \(path.prefix(200))") }
    return .bytes(asset.bytes, contentType: asset.type).adding("Cache-Control", "no-cache")
  }

  /// Checks the token a person typed, and sets it as a cookie for this
  /// server alone.
  private func login(_ request: HTTPRequest) -> HTTPResponse {
    if let refusal = access.refusal(of: request, changesSomething: true), refusal.status != 401 { return refusal }
    guard let token = access.token else { return .text("no token is needed here\n") }
    guard case .string(let given)? = try? JSONParser.parse(request.body) else {
      return .status(400, "the body must be the token as a JSON string")
    }
    guard TokenFile.matches(given, token) else {
      metrics.countSignIn(accepted: false)
      return .status(401, "that is not the token")
    }
    metrics.countSignIn(accepted: true)
    return .text("signed in\n").adding(
      "Set-Cookie", "\(WebAccess.cookieName)=\(token); \(access.cookieAttributes)")
  }

  private static func redirect(to path: String) -> HTTPResponse {
    HTTPResponse(status: 303, headers: [HTTPHeader("Location", path)])
  }
}
