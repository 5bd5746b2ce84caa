import Glibc
import Platform

/// Why a client request failed.
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No daemon answers at the socket path. `daemon` is its name, as the
  /// message says it (`storedaemon`, or a hosted app's, `kettled`).
  case unreachable(daemon: String, path: String, SocketError)
  /// The daemon refused the request (an unknown action, a bad argument, ...).
  case rejected(code: WireErrorCode, message: String)
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
    case .rejected(_, let message): message
    case .protocolViolation(let message): "protocol error: \(message)"
    case .closed(let reason): "the daemon closed the connection: \(reason)"
    case .io(let error): "\(error)"
    case .timedOut(let message): message
    case .impostor(let daemon, let path, let peer, let expected):
      "refusing the process listening at \(path) (pid \(peer.pid)): it runs as \(DaemonUser.name(peer.uid)), not as "
        + "\(expected), so it may be an impostor (a user who can rename a directory above the socket can serve one "
        + "of their own there); nothing was sent to it. If \(DaemonUser.name(peer.uid)) does run \(daemon), "
        + "say so with --daemon-user \(peer.uid) (or TCA_DAEMON_USER)."
    }
  }
}
