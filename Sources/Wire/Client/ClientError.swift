import Glibc

/// Why a client request failed.
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No daemon answers at the socket path.
  case unreachable(path: String, SocketError)
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

  public var description: String {
    switch self {
    case .unreachable(let path, let error):
      switch error.errno {
      case EACCES, EPERM:
        "cannot reach storedaemon at \(path): permission denied. The daemon lets in its own user and root; ask whoever runs it to start it with --allow-group GROUP and add you to that group."
      case ECONNREFUSED:
        "no storedaemon is listening at \(path) (a socket is left from one that stopped). Start it with `storedaemon --socket \(path)`."
      case ENOENT:
        "no storedaemon is running at \(path). Start it with `storedaemon --socket \(path)`, or point --socket / TCA_SOCKET at the running one."
      default:
        "cannot reach storedaemon at \(path) (\(error)). Start it with `storedaemon --socket \(path)`, or point --socket / TCA_SOCKET at the running one."
      }
    case .rejected(_, let message): message
    case .protocolViolation(let message): "protocol error: \(message)"
    case .closed(let reason): "the daemon closed the connection: \(reason)"
    case .io(let error): "\(error)"
    case .timedOut(let message): message
    }
  }
}
