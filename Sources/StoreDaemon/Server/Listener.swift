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

  private init(socket: UnixSocket, path: String, ownsPath: Bool) {
    // Non-blocking: the store loop accepts when its event poll says a
    // connection waits, and must never wait in `accept`.
    socket.setNonBlocking()
    self.socket = socket
    self.path = path
    self.ownsPath = ownsPath
  }

  /// The socket systemd passed (socket activation), left in place on close.
  static func adopt(_ socket: UnixSocket, path: String) throws(SocketError) -> Listener {
    Listener(socket: socket, path: path, ownsPath: false)
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
    return Listener(socket: socket, path: path, ownsPath: true)
  }

  /// The next connection waiting, or nil when none does.
  func acceptReady() throws(SocketError) -> UnixSocket? {
    do {
      return try socket.accept()
    } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
      return nil
    }
  }

  /// Stops accepting; removes the socket file unless systemd owns it.
  func close() {
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
