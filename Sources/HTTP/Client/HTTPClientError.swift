import Platform

/// Why a request to a server failed, with what a person needs to tell a
/// server that is down from one that misbehaves.
public enum HTTPClientError: Error, Sendable, CustomStringConvertible {
  /// The connection could not be made (refused, unreachable, timed out).
  case connect(SocketError)
  /// The server did not answer, or the answer did not end, by the deadline.
  case timedOut(String)
  /// The server closed the connection or a write failed, before the answer
  /// was whole.
  case closed(String)
  /// What came back is not HTTP/1.1 as RFC 9112 writes it.
  case malformed(String)

  public var description: String {
    switch self {
    case .connect(let error): "\(error)"
    case .timedOut(let what), .closed(let what), .malformed(let what): what
    }
  }
}
