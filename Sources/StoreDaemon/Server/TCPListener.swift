import Glibc
import Platform

/// The daemon's TCP listener (`--listen-tcp HOST:PORT`), for clients on
/// other machines: meant to sit behind a TLS terminator (docs/OPERATIONS.md,
/// "Clients on other machines"), since the protocol itself is not
/// encrypted. A TCP peer has no user the kernel vouches for, so every
/// connection must give the token of `--token-file` in its `hello`; until
/// then it is one of the connections waiting for their `hello`, under the
/// same limits as on the Unix socket.
struct TCPListener: Sendable {
  /// The listening socket (a TCP one: the type wraps any stream socket).
  let socket: UnixSocket
  /// `HOST:PORT` as bound (the port the kernel picked, if it was 0).
  let address: String
  /// What a client's `hello` must carry.
  let token: String

  /// Listens on the IPv4 address `host` at `port`.
  static func open(host: String, port: UInt16, token: String) throws(SocketError) -> TCPListener {
    let (descriptor, bound) = try SocketCalls.listen(host: host, port: port)
    let socket = UnixSocket(descriptor: descriptor)
    // The store loop accepts when its poll says a connection waits.
    socket.setNonBlocking()
    return TCPListener(socket: socket, address: "\(host):\(bound)", token: token)
  }

  /// The next connection waiting, or nil when none does; replies go out at
  /// once (Nagle's algorithm off), as on the Unix socket.
  func acceptReady() throws(SocketError) -> UnixSocket? {
    let accepted: UnixSocket
    do {
      accepted = try socket.accept()
    } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
      return nil
    }
    var on: Int32 = 1
    _ = setsockopt(accepted.descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    return accepted
  }

  func close() {
    socket.close()
  }
}
