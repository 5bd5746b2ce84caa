import Glibc

/// The Glibc calls a server thread makes on a TCP connection, each retried on
/// `EINTR` and wrapped so the server code reads as what it does: listening,
/// accepting, reading, writing all of an answer, and waiting for a socket
/// or a ``StopSignal``, whichever comes first.
public enum SocketCalls {
  /// What a wait on a socket ended with.
  public enum WaitResult: Equatable {
    /// The socket has one of the events asked for (or an error or hang-up).
    case ready(revents: Int16)
    /// The server's stop signal fired first.
    case stopped
    /// The time ran out first.
    case timedOut
  }

  /// `POLLRDHUP` (the peer closed its end), which Glibc's Swift module does not
  /// export because it needs `_GNU_SOURCE`; the value is Linux's.
  public static let pollPeerClosed: Int16 = 0x2000

  /// A TCP socket listening on 127.0.0.1 at a port the kernel picks, closed
  /// on exec so child processes (a daemon under test) never inherit it.
  public static func listenOnLoopback(backlog: Int32 = 128) throws(SocketError) -> (fd: Int32, port: UInt16) {
    try listen(host: "127.0.0.1", port: 0, backlog: backlog)
  }

  /// A TCP socket listening on the IPv4 address `host` (dotted quad, e.g.
  /// `127.0.0.1`, or `0.0.0.0` for every interface) at `port` (0: one the
  /// kernel picks), closed on exec; returns it and the port it listens on.
  public static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(SocketError) -> (
    fd: Int32, port: UInt16
  ) {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      throw SocketError(
        "listen", errno: 0, detail: "'\(host.prefix(60))' is not an IPv4 address such as 127.0.0.1")
    }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SocketError("socket") }
    var on: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else {
      let error = SocketError("bind", path: "\(host):\(port)")
      close(fd)
      throw error
    }
    guard Glibc.listen(fd, backlog) == 0 else {
      let error = SocketError("listen", path: "\(host):\(port)")
      close(fd)
      throw error
    }
    var actual = sockaddr_in()
    var actualLength = length
    let named = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
    }
    guard named == 0 else {
      let error = SocketError("getsockname")
      close(fd)
      throw error
    }
    return (fd, UInt16(bigEndian: actual.sin_port))
  }

  /// A TCP connection to the IPv4 address `host` at `port`, close-on-exec,
  /// with Nagle's algorithm off; the connect waits at most `timeout`.
  ///
  /// - Throws: `SocketError` naming the address: not an IPv4 address,
  ///   refused, unreachable, or not answered in time (`ETIMEDOUT`).
  public static func connect(host: String, port: UInt16, timeout: Duration) throws(SocketError) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      throw SocketError("connect", errno: 0, detail: "'\(host.prefix(60))' is not an IPv4 address such as 127.0.0.1")
    }
    let fd = socket(
      AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { throw SocketError("socket") }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if connected != 0 {
      guard errno == EINPROGRESS else {
        let error = SocketError("connect", path: "\(host):\(port)")
        close(fd)
        throw error
      }
      var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      let ready = poll(&poller, 1, Readiness.milliseconds(until: .now + timeout))
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
      guard ready > 0, code == 0 else {
        let error = SocketError("connect", path: "\(host):\(port)", errno: ready > 0 ? code : ETIMEDOUT)
        close(fd)
        throw error
      }
    }
    // Blocking again: the callers wait in poll with their own deadlines.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var on: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    return fd
  }

  /// Accepts one connection, marked close-on-exec, with Nagle's algorithm off
  /// so small answers are not held back; `nil` when accepting failed.
  public static func accept(from listener: Int32) -> Int32? {
    while true {
      let fd = Glibc.accept(listener, nil, nil)
      if fd >= 0 {
        // Glibc's Swift module has no accept4; the flag is set right away.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
      }
      if errno != EINTR { return nil }
    }
  }

  /// Reads what is available (up to 64 KiB) and appends it to `buffer`; returns
  /// the count read, 0 at end of stream, or -1 on an error (a reset).
  public static func receive(from fd: Int32, appendingTo buffer: inout [UInt8]) -> Int {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 { buffer.append(contentsOf: chunk[..<count]) }
      if count >= 0 { return count }
      if errno != EINTR { return -1 }
    }
  }

  /// Writes all of `bytes`; `false` when the peer is gone. Never raises
  /// SIGPIPE (`MSG_NOSIGNAL`).
  public static func sendAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes {
        // invariant: offset < bytes.count: the buffer is not empty, so it has a base address
        send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if count > 0 {
        offset += count
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        return false
      }
    }
    return true
  }

  /// Writes all of `bytes` without ever blocking in `send`: when the socket
  /// is full it waits for room, for at most `timeout` in all. `false` when
  /// the peer is gone, the time ran out (a client that does not read), or
  /// `stopFD` became readable. Never raises SIGPIPE.
  public static func sendAll(_ bytes: [UInt8], to fd: Int32, orStop stopFD: Int32, timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes {
        // invariant: offset < bytes.count: the buffer is not empty, so it has a base address
        send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
      }
      if count > 0 {
        offset += count
        continue
      }
      guard count < 0 else { return false }
      switch errno {
      case EINTR:
        continue
      case EAGAIN, EWOULDBLOCK:
        guard case .ready = wait(for: Int16(POLLOUT), on: fd, orStop: stopFD, timeout: deadline - .now) else {
          return false
        }
      default:
        return false
      }
    }
    return true
  }

  /// Waits until `fd` has one of `events` (errors and hang-ups always count),
  /// `stopFD` becomes readable, or `timeout` passes (`nil`: no limit).
  public static func wait(for events: Int16, on fd: Int32, orStop stopFD: Int32, timeout: Duration?) -> WaitResult {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
      var milliseconds: Int32 = -1
      if let deadline {
        if deadline <= .now { return .timedOut }
        milliseconds = Readiness.milliseconds(until: deadline)
      }
      let count = poll(&fds, 2, milliseconds)
      if count < 0 {
        if errno == EINTR { continue }
        return .ready(revents: Int16(POLLERR))
      }
      if fds[1].revents != 0 { return .stopped }
      if fds[0].revents != 0 { return .ready(revents: fds[0].revents) }
    }
  }

  /// Closes the sending side, then reads and discards what the client still
  /// sends (for up to `linger`) before closing, so the answer is not lost to a
  /// reset caused by unread bytes (RFC 9112 §9.6).
  public static func closeGracefully(_ fd: Int32, stopFD: Int32, linger: Duration = .seconds(1)) {
    shutdown(fd, Int32(SHUT_WR))
    let deadline = ContinuousClock.now + linger
    var discard: [UInt8] = []
    while case .ready = wait(for: Int16(POLLIN), on: fd, orStop: stopFD, timeout: deadline - .now) {
      discard.removeAll(keepingCapacity: true)
      if receive(from: fd, appendingTo: &discard) <= 0 { break }
    }
    close(fd)
  }

  /// `strerror(code)` as a Swift string.
  public static func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
