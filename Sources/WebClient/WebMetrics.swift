import HTTP
import Metrics
import Platform
import Synchronization

/// What `tcaweb` counts for its `--metrics` listener (docs/WEB.md,
/// "Metrics"): requests by route and status, how long the answers took,
/// the event streams open, and sign-ins. Every connection's thread counts
/// here; a scrape reads a copy.
final class WebMetrics: Sendable {
  /// The routes requests are counted by: the served paths, every asset as
  /// one, and whatever else as `other`, so that a client cannot make a
  /// label per path it invents.
  static let routes = ["/", "/login", "/events", "/events/log", "/api/request", "asset", "other"]

  private struct Counts {
    var requests: [Key: UInt64] = [:]
    var seconds = Histogram.seconds
    var streams: [String: Int] = ["state": 0, "log": 0]
    var signIns: [String: UInt64] = ["accepted": 0, "refused": 0]
  }

  private struct Key: Hashable {
    let route: String
    let status: Int
  }

  private let counts = Mutex(Counts())

  /// The route `path` is counted under.
  static func route(of path: String) -> String {
    if routes.contains(path) && path != "asset" && path != "other" { return path }
    return WebRoutes.assets[path] != nil ? "asset" : "other"
  }

  /// Counts an answer to a request for `path`, given after `seconds`.
  func count(path: String, status: Int, seconds: Double) {
    let key = Key(route: Self.route(of: path), status: status)
    counts.withLock {
      $0.requests[key, default: 0] += 1
      $0.seconds.observe(seconds)
    }
  }

  /// Counts a sign-in, accepted or not.
  func countSignIn(accepted: Bool) {
    counts.withLock { $0.signIns[accepted ? "accepted" : "refused", default: 0] += 1 }
  }

  /// Counts an event stream of `kind` (`state` or `log`) open while
  /// `write` runs.
  func streaming(_ kind: String, _ write: () -> Void) {
    counts.withLock { $0.streams[kind, default: 0] += 1 }
    defer { counts.withLock { $0.streams[kind, default: 0] -= 1 } }
    write()
  }

  /// The metrics in Prometheus' text format.
  func exposition() -> String {
    let counts = counts.withLock { $0 }
    var text = PrometheusText()
    text.family("tcaweb_http_requests_total", .counter, help: "HTTP requests answered, by route and status.")
    for (key, count) in counts.requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }) {
      text.sample("tcaweb_http_requests_total", [("route", key.route), ("status", String(key.status))], count)
    }
    text.histogram(
      "tcaweb_http_request_seconds",
      help: "How long each answer took to make, up to its first byte (an event stream's: its head).",
      counts.seconds)
    text.family("tcaweb_event_streams", .gauge, help: "Event streams open to browsers: the state's and the log's.")
    for kind in ["state", "log"] {
      text.sample("tcaweb_event_streams", [("kind", kind)], counts.streams[kind] ?? 0)
    }
    text.family("tcaweb_sign_ins_total", .counter, help: "Sign-ins with the token, accepted or refused.")
    for outcome in ["accepted", "refused"] {
      text.sample("tcaweb_sign_ins_total", [("outcome", outcome)], counts.signIns[outcome] ?? 0)
    }
    if let statistics = ProcessStatistics.current() { text.process(statistics) }
    return text.text
  }
}
