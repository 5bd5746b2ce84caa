/// What a worker sends back for a request.
public enum EffectReply: Hashable, Sendable, Codable {
  /// A timer fired; `tick` counts the firings of a repeating timer from 1.
  case timerFired(tick: Int)
  /// The full HTTP response, whatever its status.
  case http(HTTPResponse)
  /// The storage worker's answer.
  case storage(StorageReply)
  /// The request failed; the request is over.
  case failure(EffectFailure)
}

/// Why an effect failed, as a value a feature can map to its failure action.
public struct EffectFailure: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The broad reason, for features that react differently to each.
  public enum Kind: String, Hashable, Sendable, Codable {
    /// The connection was refused or reset, or the host could not be resolved.
    case connection
    /// The request did not complete within its deadline.
    case timeout
    /// The server answered with a status outside 2xx.
    case httpStatus
    /// The reply did not decode into what the feature expected.
    case decoding
    /// The storage worker could not read or write.
    case storage
    /// The worker kind is down or degraded, or died with the request in flight.
    case workerUnavailable
    /// The request itself was invalid (a malformed URL, an oversized body).
    case invalidRequest
  }

  public var kind: Kind
  /// A message for a person: what failed and, where known, why.
  public var message: String
  /// The HTTP status, for ``Kind/httpStatus``.
  public var status: Int?

  public init(_ kind: Kind, _ message: String, status: Int? = nil) {
    self.kind = kind
    self.message = message
    self.status = status
  }

  public var description: String { "\(kind.rawValue): \(message)" }
}
