import Glibc
import Platform
import Wire

/// The listening socket systemd passes to a socket-activated daemon: the
/// sd_listen_fds(3) protocol, written from its documentation.
///
/// systemd passes `LISTEN_FDS` descriptors from 3 on, sets `LISTEN_PID` to
/// the daemon's pid (so a child that inherits the environment does not take
/// them too) and names them in `LISTEN_FDNAMES` (`FileDescriptorName=` in the
/// socket unit; the hosted app's name, `storedaemon` for the seed apps).
enum SocketActivation {
  /// The first passed descriptor (`SD_LISTEN_FDS_START`).
  static let firstDescriptor: Int32 = 3
  /// The passed listening socket and its path, or nil when systemd passed
  /// none to this process: the one named `name` (the app's), else the first.
  ///
  /// - Throws: ``SetupError`` when the passed descriptor is not a listening
  ///   Unix stream socket, which a wrong socket unit would cause.
  static func passedSocket(
    environment: [String: String], name: String = "storedaemon", pid: pid_t = getpid()
  ) throws(SetupError)
    -> (socket: UnixSocket, path: String)?
  {
    guard let listenPID = environment["LISTEN_PID"].flatMap({ pid_t($0) }), listenPID == pid,
      let count = environment["LISTEN_FDS"].flatMap({ Int32($0) }), count > 0
    else { return nil }
    let descriptors = Array(firstDescriptor..<firstDescriptor + count)
    // Close-on-exec, as sd_listen_fds does: the workers must not inherit them.
    for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    let names =
      environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
      ?? []
    let index = names.firstIndex(of: name) ?? 0
    guard index < descriptors.count else {
      throw SetupError("LISTEN_FDNAMES names more sockets (\(names.count)) than LISTEN_FDS passes (\(count))")
    }
    let descriptor = descriptors[index]
    for other in descriptors where other != descriptor {
      Log.warning("systemd passed file descriptor \(other) too; \(name) listens on one socket and closes it")
      close(other)
    }
    func option(_ name: Int32) -> Int32? {
      var value: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }
    guard option(SO_DOMAIN) == AF_UNIX, option(SO_TYPE) == Int32(SOCK_STREAM.rawValue), option(SO_ACCEPTCONN) == 1
    else {
      throw SetupError(
        "file descriptor \(descriptor) from systemd is not a listening Unix stream socket; the socket unit must "
          + "have ListenStream= with a path (see systemd/system/daemon.socket.in)")
    }
    // Its file status flags (systemd makes it non-blocking) are shared with
    // systemd's own descriptor, so they are left as they are: the accept loop
    // works either way.
    return (UnixSocket(descriptor: descriptor), boundPath(of: descriptor))
  }

  /// The path a Unix socket is bound to (`@name` for an abstract one).
  static func boundPath(of descriptor: Int32) -> String {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else { return "(file descriptor \(descriptor))" }
    let count = Int(length) - UnixSocketAddress.pathOffset
    guard count > 0 else { return "(unnamed socket)" }
    return withUnsafeBytes(of: address.sun_path) { raw in
      let bytes = Array(raw.prefix(count))
      if bytes.first == 0 { return "@" + String(decoding: bytes.dropFirst(), as: UTF8.self) }
      return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
