import Glibc
import Platform
import Wire

/// What `effectworker` does to its own process before it serves: the signal
/// dispositions, the descriptors it keeps, and the check that it was started
/// by the daemon.
enum ProcessSetup {
  /// Unblocks every signal (a parent may have blocked some), ignores SIGPIPE
  /// (a write to a closed socket is reported as `EPIPE` instead of killing the
  /// worker) and ignores SIGINT: a ^C at a terminal goes to the whole
  /// foreground process group, and the daemon, not the terminal, decides when
  /// its workers stop, by closing their sockets. Call first, before any
  /// thread starts, so every thread inherits the mask.
  static func configureSignals() {
    SignalMask.unblockAll()
    signal(SIGPIPE, SIG_IGN)
    signal(SIGINT, SIG_IGN)
  }

  /// Why file descriptor 3 cannot be the daemon's socket, or nil when it is a
  /// stream socket.
  static func socketProblem(descriptor: Int32 = WorkerProtocol.socketDescriptor) -> String? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      return "file descriptor \(descriptor) is not open (\(String(cString: strerror(errno))))"
    }
    guard status.st_mode & S_IFMT == S_IFSOCK else {
      return "file descriptor \(descriptor) is not a socket"
    }
    var type: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0,
      type == Int32(SOCK_STREAM.rawValue)
    else {
      return "file descriptor \(descriptor) is not a stream socket"
    }
    return nil
  }

  /// Closes every descriptor above `keeping` that this process inherited, as
  /// read from `/proc/self/fd`. The daemon spawns workers with everything else
  /// close-on-exec; this is defence in depth against a parent that leaks a
  /// descriptor (a listening socket, a journal) into a worker. Call before
  /// any thread starts, so nothing of this process's own is closed.
  ///
  /// - Returns: the descriptors closed.
  @discardableResult
  static func closeInheritedDescriptors(above keeping: Int32 = WorkerProtocol.socketDescriptor) -> [Int32] {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    let own = dirfd(directory)
    var inherited: [Int32] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if let descriptor = Int32(name), descriptor > keeping, descriptor != own {
        inherited.append(descriptor)
      }
    }
    closedir(directory)
    for descriptor in inherited { close(descriptor) }
    return inherited
  }
}
