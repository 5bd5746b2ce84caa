import Platform

/// Why ``TestHTTPServer`` could not start, or a wait on it ended without what
/// the test waited for.
public enum TestHTTPServerError: Error, CustomStringConvertible {
  /// A socket call failed while the server started.
  case socket(SocketError)
  /// A wait ran out of time; `received` lists what had arrived, so the
  /// failure message shows what the client did send.
  case timedOut(waitingFor: String, after: Duration, received: [RecordedRequest])

  public var description: String {
    switch self {
    case .socket(let error):
      return "TestHTTPServer: \(error)"
    case .timedOut(let what, let timeout, let received):
      let list = received.isEmpty ? "none" : received.map(\.description).joined(separator: ", ")
      return "TestHTTPServer: timed out after \(timeout) waiting for \(what); requests received: \(list)"
    }
  }
}
