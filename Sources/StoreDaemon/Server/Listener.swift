import Glibc
import Platform
import Wire

/// The daemon's listening socket: created with private permissions in a
/// private directory, refusing to take over a socket another daemon serves.
struct Listener: Sendable {
  let socket: UnixSocket
  let path: String
  /// Whether the socket file is the daemon's to remove: not when systemd
  /// passed the socket, which outlives the daemon (socket activation).
  let ownsPath: Bool
  /// A pipe whose write end ``close()`` writes to, waking ``accept()``: a
  /// passed socket must not be shut down, as systemd listens on it too.
  private let wakeRead: Int32
  private let wakeWrite: Int32

  private init(socket: UnixSocket, path: String, ownsPath: Bool) throws(SocketError) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SocketError("pipe") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    if ownsPath {
      // Non-blocking, so that a connection that goes away between poll and
      // accept cannot leave accept waiting where close() cannot wake it.
      let flags = fcntl(socket.descriptor, F_GETFL)
      if flags >= 0 { _ = fcntl(socket.descriptor, F_SETFL, flags | O_NONBLOCK) }
    }
    self.socket = socket
    self.path = path
    self.ownsPath = ownsPath
    wakeRead = ends[0]
    wakeWrite = ends[1]
  }

  /// The socket systemd passed (socket activation), left in place on close.
  static func adopt(_ socket: UnixSocket, path: String) throws(SocketError) -> Listener {
    try Listener(socket: socket, path: path, ownsPath: false)
  }

  /// Binds `options.socketPath`: its directory is created 0700 (0750 for an
  /// allowed group), the socket is 0600 (0660 for an allowed group). A stale
  /// socket left by a dead daemon is replaced; a live one is an error.
  static func open(_ options: DaemonOptions, group: (name: String, gid: gid_t)?) throws(SocketError) -> Listener {
    let path = options.socketPath
    let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    if !directory.isEmpty {
      // Only directories created here are opened to the group: an existing one
      // (a home directory, /run) is never changed.
      let created = try DirectorySetup.create(directory, mode: group == nil ? 0o700 : 0o750)
      if let group {
        for path in created { _ = chown(path, uid_t.max, group.gid) }
      }
      try DirectorySetup.checkSafeForSocket(directory)
    }
    try removeStaleSocket(at: path)
    let socket = try UnixSocket.listen(at: path, mode: group == nil ? 0o600 : 0o660)
    if let group, chown(path, uid_t.max, group.gid) != 0 {
      let error = SocketError("chown", path: path, detail: "cannot give the socket to group '\(group.name)'")
      socket.close()
      unlink(path)
      throw error
    }
    do {
      return try Listener(socket: socket, path: path, ownsPath: true)
    } catch {
      socket.close()
      unlink(path)
      throw error
    }
  }

  /// The next connection; nil once ``close()`` was called.
  func accept() throws(SocketError) -> UnixSocket? {
    var descriptors = [
      pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        throw SocketError("poll")
      }
      if descriptors[1].revents != 0 { return nil }
      do {
        return try socket.accept()
      } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
        continue  // The connection went away before it was accepted.
      }
    }
  }

  /// Stops accepting; removes the socket file unless systemd owns it.
  func close() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
    if ownsPath {
      socket.shutdown()
      unlink(path)
    }
    socket.close()
  }

  private static func removeStaleSocket(at path: String) throws(SocketError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else {
      throw SocketError(
        "bind", path: path, errno: EEXIST,
        detail: "the path exists and is not a socket; remove it or choose another --socket")
    }
    if let live = try? UnixSocket.connect(to: path) {
      live.close()
      throw SocketError(
        "bind", path: path, errno: EADDRINUSE, detail: "another \(DaemonName.current) is already serving this socket")
    }
    unlink(path)
  }
}
