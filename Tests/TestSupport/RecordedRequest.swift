import Foundation
import HTTP

/// One request as ``TestHTTPServer`` received it, recorded before the handler
/// runs, so a test can assert on what a client really sent.
public struct RecordedRequest: Hashable, Sendable, CustomStringConvertible {
  /// The request's place in the server's arrival order, from 1.
  public var sequence: Int
  /// Which connection carried it, numbered from 1 in accept order: two
  /// requests with the same number came over one kept-alive connection.
  public var connection: Int
  /// The method, e.g. `GET`.
  public var method: String
  /// The request target exactly as sent, e.g. `/store/products?limit=5`.
  public var target: String
  /// The target's path, percent-decoded, e.g. `/gifs/v1/gifs/search`.
  public var path: String
  /// The query's name/value pairs in order, percent-decoded (`+` reads as a
  /// space). A name without `=` has a `nil` value.
  public var queryItems: [URLQueryItem]
  /// `HTTP/1.1` or `HTTP/1.0`.
  public var version: String
  /// The header fields in the order they arrived.
  public var headers: [HTTPHeader]
  /// The body (`Content-Length` bytes; empty without one).
  public var body: Data
  /// When the whole request had arrived, on the monotonic clock: subtract two
  /// of these to measure how far apart requests came.
  public var receivedAt: ContinuousClock.Instant
  /// When the whole request had arrived, on the wall clock, for messages.
  public var date: Date

  public init(
    sequence: Int, connection: Int, method: String, target: String, version: String = "HTTP/1.1",
    headers: [HTTPHeader] = [], body: Data = Data(), receivedAt: ContinuousClock.Instant = .now,
    date: Date = Date()
  ) {
    self.sequence = sequence
    self.connection = connection
    self.method = method
    self.target = target
    let (path, query) = Self.split(target)
    self.path = path
    self.queryItems = query
    self.version = version
    self.headers = headers
    self.body = body
    self.receivedAt = receivedAt
    self.date = date
  }

  /// The value of the first header named `name` (case-insensitive).
  public func header(_ name: String) -> String? { headers.value(for: name) }

  /// The value of the first query item named `name` (`""` for a bare name).
  public func query(_ name: String) -> String? {
    queryItems.first { $0.name == name }.map { $0.value ?? "" }
  }

  /// The path's segments after the leading `/`: `/store/users/1` → `["store", "users", "1"]`.
  public var pathSegments: [Substring] { path.split(separator: "/") }

  /// The body read as UTF-8.
  public var bodyText: String { String(decoding: body, as: UTF8.self) }

  /// The body decoded from JSON.
  public func decodeBody<Value: Decodable>(as type: Value.Type) throws -> Value {
    try JSONDecoder().decode(type, from: body)
  }

  /// `#3 GET /store/products (connection 1)`, for failure messages.
  public var description: String { "#\(sequence) \(method) \(target) (connection \(connection))" }

  /// Splits a request target into its decoded path and query items. An
  /// absolute-form target (`http://host/path`) is reduced to its path.
  static func split(_ target: String) -> (path: String, query: [URLQueryItem]) {
    let split = HTTPRequestTarget(target)
    return (split.path, split.query.map { URLQueryItem(name: $0.name, value: $0.value) })
  }
}
