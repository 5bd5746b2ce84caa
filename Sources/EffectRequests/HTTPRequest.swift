import FoundationEssentials
import JSON

/// An HTTP request for the network worker.
public struct HTTPRequest: Hashable, Sendable, Codable {
  /// The method, e.g. `GET`, `POST`.
  public var method: String
  /// The absolute URL, e.g. `https://fakestoreapi.com/products`.
  public var url: String
  /// Header fields in the order they are sent.
  public var headers: [HTTPHeader]
  /// The request body, if any.
  public var body: Data?
  /// How long the worker waits for the whole response before failing.
  public var timeoutMilliseconds: Int

  public init(
    method: String = "GET", url: String, headers: [HTTPHeader] = [], body: Data? = nil,
    timeout: Duration = .seconds(30)
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeoutMilliseconds = timeout.wholeMilliseconds
  }

  /// The URL for messages and logs: the query string (which may hold an API
  /// key) is replaced by `?…`, and any user information is dropped.
  public var displayURL: String {
    var url = url
    if let query = url.firstIndex(of: "?") { url = String(url[..<query]) + "?…" }
    if let scheme = url.firstRange(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
      !url[scheme.upperBound..<at].contains("/")
    {
      url.removeSubrange(scheme.upperBound...at)
    }
    return url
  }

  /// A `GET` of `url`.
  public static func get(_ url: String, timeout: Duration = .seconds(30)) -> Self {
    Self(method: "GET", url: url, headers: [HTTPHeader("Accept", "application/json")], timeout: timeout)
  }

  /// A request whose body is `value` encoded as JSON with sorted keys and dates
  /// as ISO 8601 strings with milliseconds (`2026-12-02T17:27:37.123Z`,
  /// ``JSONDate``), as web APIs expect: canonical JSON, optional
  /// members without a value left out (`JSONValue(encoding:)`), non-finite
  /// numbers as the strings `"Infinity"`, `"-Infinity"`, `"NaN"`.
  public static func json(
    _ method: String, _ url: String, body value: some Encodable, timeout: Duration = .seconds(30)
  ) throws -> Self {
    Self(
      method: method, url: url,
      headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")],
      body: Data(CanonicalJSON.encode(try JSONValue(encoding: value))), timeout: timeout)
  }
}

/// One header field.
public struct HTTPHeader: Hashable, Sendable, Codable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// An HTTP response as the network worker received it, whatever its status.
public struct HTTPResponse: Hashable, Sendable, Codable {
  public var status: Int
  public var headers: [HTTPHeader]
  public var body: Data

  public init(status: Int, headers: [HTTPHeader] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A response whose body is `text` in UTF-8.
  public init(status: Int, text: String) {
    self.init(status: status, headers: [HTTPHeader("Content-Type", "text/plain")], body: Data(text.utf8))
  }

  /// A response whose body is `value` encoded as JSON, as a test server would send.
  public init(status: Int = 200, json value: some Encodable) throws {
    self.init(
      status: status, headers: [HTTPHeader("Content-Type", "application/json")],
      body: Data(CanonicalJSON.encode(try JSONValue(encoding: value))))
  }

  /// Whether the status is 2xx.
  public var isSuccess: Bool { (200..<300).contains(status) }
}
