import Glibc
import Platform
import Wire

/// How `watch` and `log --follow` ride out a daemon that restarts and a
/// replicated store's leader change: they connect again, to the first of
/// their sockets that answers, pausing longer each time (50 ms, doubling,
/// at most 2 s) for as long as it takes (until ^C), and say so on standard
/// error when the connection ends and when it is back. The caller then
/// takes up its stream after the last version it showed.
enum Reconnection {
  /// The longest pause between two attempts.
  static let longestPause: Duration = .seconds(2)

  /// Connects `client` again after its connection ended for `why`.
  ///
  /// - Throws: what refuses for good (``isPermanent(_:)``). Anything else
  ///   (no daemon, a refusal such as too many clients) is tried again.
  static func reconnect(_ client: WireClient, after why: String) throws(ClientError) {
    Terminal.error("\(why); connecting again to \(client.paths.joined(separator: ", "))")
    var pause = Duration.milliseconds(50)
    while true {
      do {
        try client.reconnect()
        Terminal.error("connected to \(client.path) at version \(client.versionAtConnect) (epoch \(client.epoch))")
        return
      } catch {
        if isPermanent(error) { throw error }
        ThreadSleep.sleep(for: pause)
        pause = min(pause * 2, longestPause)
      }
    }
  }

  /// Whether trying again cannot help until a person acts: a process at
  /// the socket that runs as another user than the daemon's, a daemon that
  /// refuses this client (`forbidden`: its user, its token), speaks another
  /// protocol, refuses its `hello` or cannot serve the store it names, or
  /// a socket this user may not open;
  /// of several sockets, only if each fails so.
  static func isPermanent(_ error: ClientError) -> Bool {
    switch error {
    case .impostor: true
    case .rejected(let code, _):
      code == .forbidden || code == .unsupportedVersion || code == .handshake || code == .invalidStore
    case .unreachable(_, _, let failure): failure.errno == EACCES || failure.errno == EPERM
    case .allSocketsFailed(_, let failures): !failures.isEmpty && failures.allSatisfy { isPermanent($0.error) }
    default: false
    }
  }
}
