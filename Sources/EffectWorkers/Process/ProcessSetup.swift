import Glibc
import Platform
import Wire

/// What `effectworker` does to its own process before it serves: the signal
/// dispositions and the check that it was started
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
}
