import HTTP
import Platform

/// The HTTP listener a program opens when asked (`--metrics HOST:PORT`):
/// `GET /metrics` answers with what `exposition` writes, in Prometheus'
/// text format; anything else is refused. Each scrape is served on the
/// server's own thread, never the caller's.
public final class MetricsEndpoint: Sendable {
  private let server: HTTPServer

  /// The port it listens on (the kernel's pick when asked for 0).
  public var port: UInt16 { server.port }

  /// Listens on `host` (an IPv4 address) at `port` and starts serving.
  /// `exposition` gives the text of a scrape, or nil when the program
  /// cannot answer now (it is stopping, or its loop did not answer in
  /// time), which is answered with 503.
  ///
  /// - Throws: ``MetricsEndpointError`` naming the address when it cannot
  ///   be listened on.
  public init(host: String, port: UInt16, exposition: @escaping @Sendable () -> String?)
    throws(MetricsEndpointError)
  {
    do {
      server = try HTTPServer(host: host, port: port) { request in
        Self.answer(request, exposition: exposition)
      }
    } catch {
      throw MetricsEndpointError(address: "\(host):\(port)", reason: "\(error)")
    }
    do {
      try server.start()
    } catch {
      server.shutDown()
      throw MetricsEndpointError(address: "\(host):\(port)", reason: "\(error)")
    }
  }

  /// Stops listening, and ends the scrapes being served.
  public func shutDown() {
    server.shutDown()
  }

  static func answer(_ request: HTTPRequest, exposition: () -> String?) -> HTTPResponse {
    guard request.path == "/metrics" else {
      return .status(404, "no page \(request.path); the metrics are at /metrics")
    }
    guard request.method == "GET" || request.method == "HEAD" else {
      return .status(405, "\(request.method) is not served here; scrape /metrics with GET").adding("Allow", "GET, HEAD")
    }
    guard let text = exposition() else {
      return .status(503, "the metrics could not be gathered now; scrape again")
    }
    return .bytes(Array(text.utf8), contentType: PrometheusText.contentType)
  }
}

/// Why the metrics listener could not be opened.
public struct MetricsEndpointError: Error, CustomStringConvertible {
  /// The address asked for, `HOST:PORT`.
  public let address: String
  public let reason: String

  public var description: String { "cannot serve metrics on \(address): \(reason)" }
}
