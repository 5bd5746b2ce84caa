import HTTP

/// Why a request to etcd failed.
public enum EtcdError: Error, Sendable, CustomStringConvertible {
  /// No endpoint answered: each one's failure, in the order tried. The
  /// cluster is down, or this machine cannot reach a majority of it.
  case unavailable([String])
  /// etcd answered with an error: its HTTP status and message (for example
  /// a lease that does not exist, or a request it could not decode).
  case rejected(status: Int, message: String)
  /// etcd's answer was not the JSON this client expected.
  case malformed(String)

  public var description: String {
    switch self {
    case .unavailable(let failures):
      "no etcd endpoint answered: " + failures.joined(separator: "; ")
    case .rejected(let status, let message):
      "etcd refused the request (HTTP \(status)): \(message)"
    case .malformed(let what):
      "etcd's answer was not understood: \(what)"
    }
  }
}
