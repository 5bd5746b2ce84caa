import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A response as URLSession delivered it, for assertions.
struct FetchedResponse: Sendable {
  var status: Int
  var body: Data
  var contentType: String?
  var connectionHeader: String?

  var text: String { String(decoding: body, as: UTF8.self) }
}

/// Requests through FoundationNetworking's URLSession (libcurl underneath),
/// the client the network worker uses, so the server is tested against it.
enum URLSessionClient {
  /// Sends one request on a fresh ephemeral session.
  static func fetch(
    _ url: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
    timeout: TimeInterval = 10
  ) async throws -> FetchedResponse {
    // On Linux the session's own timeout governs, not only the request's.
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    return try await fetch(url, on: session, method: method, body: body, headers: headers, timeout: timeout)
  }

  /// Sends one request on `session` (several on one session may share a connection).
  static func fetch(
    _ url: String, on session: URLSession, method: String = "GET", body: Data? = nil,
    headers: [String: String] = [:], timeout: TimeInterval = 10
  ) async throws -> FetchedResponse {
    guard let address = URL(string: url) else { throw URLError(.badURL) }
    var request = URLRequest(url: address, timeoutInterval: timeout)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    return FetchedResponse(
      status: http.statusCode, body: data, contentType: http.value(forHTTPHeaderField: "Content-Type"),
      connectionHeader: http.value(forHTTPHeaderField: "Connection"))
  }
}
