/// Why a payload is not a valid message. Each case says what was expected, so
/// the error sent back to a client tells it how to fix the request.
public struct MessageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A stable, machine-readable code, sent as the error message's `code`.
  public let code: WireErrorCode
  /// What was wrong and what was expected.
  public let message: String

  public init(_ code: WireErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}

/// The error codes of the protocol (docs/PROTOCOL.md, "Errors").
public enum WireErrorCode: String, Sendable, Codable, CaseIterable {
  /// The payload is not JSON.
  case invalidJSON = "invalid_json"
  /// The JSON is not a message: a missing or mistyped field.
  case invalidMessage = "invalid_message"
  /// The `type` names no message of this protocol.
  case unknownType = "unknown_type"
  /// The first message was not `hello`, or `hello` came twice.
  case handshake = "handshake"
  /// The peer speaks another protocol version.
  case unsupportedVersion = "unsupported_version"
  /// The action path or action JSON names no action, or its arguments do not fit.
  case invalidAction = "invalid_action"
  /// A path names no part of the state.
  case invalidPath = "invalid_path"
  /// A frame exceeded the maximum size, or a connection closed inside one.
  case frame = "frame"
  /// The peer's user may not use this socket.
  case forbidden = "forbidden"
  /// The client sent nothing for too long after connecting.
  case timeout = "timeout"
  /// The daemon already serves as many clients as it allows.
  case tooManyClients = "too_many_clients"
  /// The journal could not record the action (no space, or writes are refused
  /// after an I/O error); the action was not applied and the state is unchanged.
  case journal = "journal"
  /// The version asked for is not in the journal: compacted into a snapshot
  /// long ago, or not reached yet.
  case versionUnavailable = "version_unavailable"
  /// The connection already has a subscription.
  case alreadySubscribed = "already_subscribed"
  /// The daemon is a standby of a replicated store: it answers reads, and
  /// the message names the leader, which takes sends.
  case notLeader = "not_leader"
  /// The `hello` named a store the daemon cannot serve: the name is not a
  /// store name, or the store could not be opened; the message says which.
  case invalidStore = "invalid_store"
  /// Something failed inside the daemon; the message says what.
  case `internal` = "internal"
}
