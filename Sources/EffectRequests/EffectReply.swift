import JSON

/// What a worker sends back for a request.
public enum EffectReply: Hashable, Sendable, Codable {
  /// A timer fired; `tick` counts the firings of a repeating timer from 1.
  case timerFired(tick: Int)
  /// The full HTTP response, whatever its status.
  case http(HTTPResponse)
  /// The storage worker's answer.
  case storage(StorageReply)
  /// The answer of an app's own worker to an ``EffectRequest/custom(kind:payload:)``,
  /// as that worker wrote it.
  case custom(JSONValue)
  /// The request failed; the request is over.
  case failure(EffectFailure)
}

/// Why an effect failed, as a value a feature can map to its failure action.
public struct EffectFailure: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The broad reason, for features that react differently to each.
  public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The connection was refused or reset, or the host could not be resolved.
    case connection
    /// The request did not complete within its deadline.
    case timeout
    /// The server answered with a status outside 2xx.
    case httpStatus
    /// The reply did not decode into what the feature expected.
    case decoding
    /// A worker could not read or write its files: the storage worker, or
    /// an app's own worker that says so.
    case storage
    /// The request was never handed to a worker: its kind is down, starting
    /// or degraded, its worker stopped reading, or it stopped (or storedaemon
    /// did) while the request still waited to be sent. Nothing of it was
    /// carried out, so trying again is safe.
    case workerUnavailable
    /// The request was handed to its worker, which then ended before it
    /// replied (it crashed, was killed, broke the protocol, or stopped with
    /// storedaemon): the request may or may not have been carried out (an HTTP
    /// request may have reached its server, a put may have been stored), and
    /// its reply is lost. Repeating an idempotent request (a GET, a put of the
    /// same document) is safe; a feature that did something else, like placing
    /// an order, must say that its outcome is unknown.
    case interrupted
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
