import Glibc

/// A TCP port on 127.0.0.1 held by this process for one test, in one of two
/// states a real server can be in.
final class LoopbackPort {
  enum Behaviour {
    /// Bound but not listening: connecting is refused (the kernel answers RST).
    case refusing
    /// Listening but never accepting: the kernel completes the handshake and
    /// takes the request, and no answer ever comes.
    case silent
  }

  let port: UInt16
  private let descriptor: Int32

  init(_ behaviour: Behaviour) throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw WorkerTestError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, behaviour == .refusing || listen(descriptor, 64) == 0 else {
      let error = WorkerTestError("bind or listen on 127.0.0.1: \(String(cString: strerror(errno)))")
      close(descriptor)
      throw error
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    self.descriptor = descriptor
    port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(descriptor) }

  /// `http://127.0.0.1:<port><path>`.
  func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }
}
