import Glibc
import Platform

/// Why a client request failed.
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No daemon answers at the socket path. `daemon` is its name, as the
  /// message says it (`storedaemon`, or a hosted app's, `kettled`).
  case unreachable(daemon: String, path: String, SocketError)
  /// The daemon refused the request (an unknown action, a bad argument, ...).
  case rejected(code: WireErrorCode, message: String)
  /// A standby of a replicated store refused a `send` (`not_leader`),
  /// naming the store's leader when it knows one.
  case notLeader(message: String, leader: StoreLeader?)
  /// The daemon said something this client does not understand.
  case protocolViolation(String)
  /// The connection closed, with the daemon's reason when it gave one.
  case closed(reason: String)
  /// Reading or writing the socket failed.
  case io(SocketError)
  /// The answer did not come in time; the message says what was waited for.
  case timedOut(String)
  /// The process listening at `path` runs as a user the client does not
  /// accept as the daemon `daemon` (``DaemonUser``); nothing was sent to it.
  case impostor(daemon: String, path: String, peer: PeerCredentials, expected: DaemonUser)
  /// A client made from several sockets (``WireClient/init(paths:clientName:maximumFrame:handshakeTimeout:daemon:daemonUser:leaderTimeout:)``)
  /// got nowhere with any: `summary` says what failed, and each socket
  /// tried is listed, in the list's order, with the last thing it said.
  case allSocketsFailed(summary: String, [SocketFailure])

  public var description: String {
    switch self {
    case .unreachable(let daemon, let path, let error):
      switch error.errno {
      case EACCES, EPERM:
        "cannot reach \(daemon) at \(path): permission denied. The daemon lets in its own user and root; ask whoever runs it to start it with --allow-group GROUP and add you to that group."
      case ECONNREFUSED:
        "no \(daemon) is listening at \(path) (a socket is left from one that stopped). Start it with `\(daemon) --socket \(path)`."
      case ENOENT:
        "no \(daemon) is running at \(path). Start it with `\(daemon) --socket \(path)`, or point --socket / TCA_SOCKET at the running one."
      default:
        "cannot reach \(daemon) at \(path) (\(error)). Start it with `\(daemon) --socket \(path)`, or point --socket / TCA_SOCKET at the running one."
      }
    case .rejected(_, let message), .notLeader(let message, _): message
    case .protocolViolation(let message): "protocol error: \(message)"
    case .closed(let reason): "the daemon closed the connection: \(reason)"
    case .io(let error): "\(error)"
    case .timedOut(let message): message
    case .impostor(let daemon, let path, let peer, let expected):
      "refusing the process listening at \(path) (pid \(peer.pid)): it runs as \(DaemonUser.name(peer.uid)), not as "
        + "\(expected), so it may be an impostor (a user who can rename a directory above the socket can serve one "
        + "of their own there); nothing was sent to it. If \(DaemonUser.name(peer.uid)) does run \(daemon), "
        + "say so with --daemon-user \(peer.uid) (or TCA_DAEMON_USER)."
    case .allSocketsFailed(let summary, let failures) where failures.isEmpty:
      summary
    case .allSocketsFailed(let summary, let failures):
      ([summary + ":"] + failures.map { "  \($0.path): \($0.reported)" }).joined(separator: "\n")
    }
  }

  /// Whether a daemon refused (``rejected(code:message:)``), or refused
  /// everywhere: its answer, not the way to it, is what failed.
  public var isRefusal: Bool {
    switch self {
    case .rejected, .notLeader: true
    case .allSocketsFailed(_, let failures): failures.contains { $0.error.isRefusal }
    default: false
    }
  }

  /// `error`, met after an action was sent and before its answer came:
  /// when the connection ended (``closed(reason:)``, ``io(_:)``), the
  /// daemon may have applied the action before it went, so the action may
  /// or may not have been applied, and is not sent again; the error says
  /// so. Other errors are returned as they are.
  public static func unanswered(_ error: ClientError) -> ClientError {
    let outcome =
      "before it answered the action, which may or may not have been applied: look at the log (`tcactl log`) "
      + "before sending it again"
    switch error {
    case .closed(let reason): return .closed(reason: "\(reason), \(outcome)")
    case .io(let error): return .closed(reason: "\(error), \(outcome)")
    default: return error
    }
  }

  /// Whether the daemon did not answer at all (nothing to connect to, a
  /// connection that failed or timed out in the handshake, or an answer
  /// that was not the protocol's): another socket of a list may.
  var isSilence: Bool {
    switch self {
    case .unreachable, .closed, .io, .timedOut, .protocolViolation: true
    case .rejected, .notLeader, .impostor: false
    case .allSocketsFailed(_, let failures): failures.allSatisfy { $0.error.isSilence }
    }
  }
}

/// One socket of a list, and what went wrong there (``ClientError/allSocketsFailed(summary:_:)``).
public struct SocketFailure: Equatable, Sendable {
  public var path: String
  public var error: ClientError

  public init(path: String, error: ClientError) {
    self.path = path
    self.error = error
  }

  /// The error as the list shows it: a standby's refusal without its
  /// opening, which the summary says already.
  var reported: String {
    let text = error.description
    let opening = "the action was not applied: "
    return text.hasPrefix(opening) ? String(text.dropFirst(opening.count)) : text
  }
}
