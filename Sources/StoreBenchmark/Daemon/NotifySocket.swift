import Glibc
import Platform

/// A datagram socket playing systemd's notification socket: the daemon's
/// `READY=1` on it is the precise instant the daemon is ready to serve.
final class NotifySocket {
  let path: String
  private let descriptor: Int32

  init(path: String) throws(BenchError) {
    self.path = path
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else { throw BenchError("bind \(path): \(String(cString: strerror(errno)))") }
  }

  deinit {
    close(descriptor)
    unlink(path)
  }

  /// Reads every datagram waiting, so the daemon's notifications never fill
  /// the socket (the daemon's send would block); returns when each that
  /// holds `WATCHDOG=1` was read (``MonotonicClock.now()``).
  func drainWatchdogPings() -> [UInt64] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var pings: [UInt64] = []
    while true {
      let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      guard count > 0 else { return pings }
      if String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("WATCHDOG=1") {
        pings.append(MonotonicClock.now())
      }
    }
  }

  /// Waits for a datagram holding `READY=1`; returns when it arrived
  /// (``MonotonicClock.now()``), or nil if none came within `timeout` seconds.
  func waitForReady(timeout: Double) -> UInt64? {
    let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while MonotonicClock.now() < deadline {
      guard Readiness.readable(descriptor, milliseconds: 100) else { continue }
      let count = recv(descriptor, &buffer, buffer.count, 0)
      let arrived = MonotonicClock.now()
      guard count > 0 else { continue }
      if String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") { return arrived }
    }
    return nil
  }
}
