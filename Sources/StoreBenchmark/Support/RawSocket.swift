import Glibc

/// The few socket calls the load generators need, on plain descriptors: they
/// drive many connections from one thread with poll(2), as redis-benchmark
/// does, so the client side costs the same for Redis and for storedaemon.
enum RawSocket {
  /// Connects to the stream socket at `path`.
  static func connect(_ path: String) throws(BenchError) -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw BenchError("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(descriptor)
      throw BenchError("cannot connect to \(path): \(reason)")
    }
    return descriptor
  }

  /// Writes all of `bytes`, waiting as needed.
  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(BenchError) {
    let failure = bytes.withUnsafeBytes { raw -> BenchError? in
      do throws(BenchError) {
        try writeAll(descriptor, raw)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Writes all of `bytes`, waiting as needed.
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(BenchError) {
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN {
          var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&poller, 1, 1000)
          continue
        }
        throw BenchError("write: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
  }

  static func setNonBlocking(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
  }

  /// Waits until `descriptor` is readable or `milliseconds` pass.
  static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&poller, 1, milliseconds) == 1
  }
}
