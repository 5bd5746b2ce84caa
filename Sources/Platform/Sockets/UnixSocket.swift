import Glibc

/// A stream socket in the `AF_UNIX` family: the file descriptor and the
/// blocking system calls the daemon and the clients need, with errors that
/// carry `errno`.
///
/// A `UnixSocket` owns its descriptor until ``close()``. It is a value holding
/// an integer, so it is `Sendable`; whoever closes it must make sure no other
/// thread still uses it.
public struct UnixSocket: Sendable, Hashable {
  public let descriptor: Int32

  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// The longest path `sockaddr_un` holds, without the terminating NUL.
  public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// Connects to the socket at `path`.
  public static func connect(to path: String) throws(SocketError) -> UnixSocket {
    let socket = try make()
    var address = try address(for: path)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let error = SocketError("connect", path: path)
      socket.close()
      throw error
    }
    return socket
  }

  /// Binds a new listening socket at `path` with the given file mode.
  public static func listen(at path: String, mode: mode_t, backlog: Int32 = 128) throws(SocketError) -> UnixSocket {
    let socket = try make()
    var address = try address(for: path)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else {
      let error = SocketError("bind", path: path)
      socket.close()
      throw error
    }
    guard chmod(path, mode) == 0 else {
      let error = SocketError("chmod", path: path)
      socket.close()
      throw error
    }
    guard Glibc.listen(socket.descriptor, backlog) == 0 else {
      let error = SocketError("listen", path: path)
      socket.close()
      throw error
    }
    return socket
  }

  /// Waits for and returns the next connection. Fails with `EINTR` or
  /// `EBADF`/`EINVAL` once the listener is shut down.
  public func accept() throws(SocketError) -> UnixSocket {
    let descriptor = Glibc.accept(self.descriptor, nil, nil)
    guard descriptor >= 0 else { throw SocketError("accept") }
    // accept4 needs _GNU_SOURCE, which Glibc's module map does not expose.
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    return UnixSocket(descriptor: descriptor)
  }

  /// Reads up to `capacity` bytes, waiting at most `timeout` for them (nil:
  /// for ever) and then failing with `EAGAIN`; an empty result means the
  /// peer closed.
  ///
  /// It waits in `poll` for `POLLIN`, not in `read`: a thread blocked in
  /// `read(2)` on a Unix stream socket is woken each time the peer reads
  /// what was written to it (the kernel's write-space wakeup shares the
  /// socket's wait queue, and `read` does not filter it), only to find
  /// nothing and sleep again: for a subscriber's connection, which sends
  /// nothing, a context switch for every diff it reads. `poll`'s wakeup
  /// looks at the event first.
  public func read(upTo capacity: Int = 64 * 1024, timeout: Duration? = nil) throws(SocketError) -> [UInt8] {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = deadline.map { Readiness.milliseconds(until: $0) } ?? -1
      let ready = poll(&waiting, 1, milliseconds)
      if ready < 0 {
        if errno == EINTR { continue }
        throw SocketError("poll")
      }
      if ready == 0 {
        guard let deadline, let timeout, ContinuousClock.now >= deadline else { continue }
        throw SocketError("read", errno: EAGAIN, detail: "nothing arrived within \(timeout)")
      }
      return try readReady(upTo: capacity)
    }
  }

  /// Reads up to `capacity` bytes at once, for a caller that has just seen
  /// the socket readable in its own `poll`; an empty result means the peer
  /// closed. Called otherwise, it may wait in `read(2)`.
  public func readReady(upTo capacity: Int = 64 * 1024) throws(SocketError) -> [UInt8] {
    while true {
      // Uninitialized: `read` fills what it returns; zeroing the buffer first
      // would cost every read in proportion to its capacity, not its frame.
      var failed = false
      let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
        let count = Glibc.read(descriptor, buffer.baseAddress, capacity)
        failed = count < 0
        initialized = max(count, 0)
      }
      if !failed { return bytes }
      if errno == EINTR { continue }
      throw SocketError("read")
    }
  }

  /// Writes all of `bytes`, retrying short writes and interrupted calls.
  public func write(_ bytes: [UInt8]) throws(SocketError) {
    let failure = bytes.withUnsafeBytes { raw -> SocketError? in
      do throws(SocketError) {
        try write(raw)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Writes all of `bytes`, retrying short writes and interrupted calls.
  ///
  /// A socket without room fails with `EAGAIN` when it is non-blocking
  /// (``setNonBlocking()``) or its write timeout passed; with
  /// `waitingWhenFull` the write waits for room instead, as a thread that
  /// drives many non-blocking sockets (the benchmark's load) wants.
  public func write(_ bytes: UnsafeRawBufferPointer, waitingWhenFull: Bool = false) throws(SocketError) {
    var offset = 0
    while offset < bytes.count {
      // invariant: offset < bytes.count: the buffer is not empty, so it has a base address
      let count = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      if count > 0 {
        offset += count
      } else if count < 0 && errno == EINTR {
        continue
      } else if count < 0 && errno == EAGAIN && waitingWhenFull {
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = poll(&poller, 1, 1000)
      } else {
        throw SocketError("write")
      }
    }
  }

  /// Makes reads and writes return at once (`EAGAIN`) instead of waiting,
  /// for a thread that polls many sockets.
  public func setNonBlocking() {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
  }

  /// Sets how long a write may wait for the peer to make room before failing
  /// with `EAGAIN` (zero waits forever).
  public func setWriteTimeout(_ duration: Duration) throws(SocketError) {
    let (seconds, attoseconds) = duration.components
    var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    guard setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
      throw SocketError("setsockopt(SO_SNDTIMEO)")
    }
  }

  /// The user and group of the process on the other end (`SO_PEERCRED`).
  public func peerCredentials() throws(SocketError) -> PeerCredentials {
    // `struct ucred` (pid_t pid; uid_t uid; gid_t gid) needs _GNU_SOURCE, which
    // Glibc's module map does not expose; its layout is three 32-bit fields.
    var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
      throw SocketError("getsockopt(SO_PEERCRED)")
    }
    return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
  }

  /// Stops further reads and writes; a thread blocked in `read` or `accept` on
  /// this socket returns.
  public func shutdown() {
    _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// Closes the descriptor.
  public func close() {
    _ = Glibc.close(descriptor)
  }

  private static func make() throws(SocketError) -> UnixSocket {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw SocketError("socket") }
    return UnixSocket(descriptor: descriptor)
  }

  private static func address(for path: String) throws(SocketError) -> sockaddr_un {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumPathLength else {
      throw SocketError(
        "address", path: path, errno: ENAMETOOLONG,
        detail:
          "a socket path holds at most \(maximumPathLength) bytes; this one has \(bytes.count). Choose a shorter --socket path."
      )
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return address
  }
}

/// Who is on the other end of a Unix socket, as the kernel vouches.
public struct PeerCredentials: Sendable, Hashable {
  public let pid: pid_t
  public let uid: uid_t
  public let gid: gid_t

  public init(pid: pid_t, uid: uid_t, gid: gid_t) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }
}
