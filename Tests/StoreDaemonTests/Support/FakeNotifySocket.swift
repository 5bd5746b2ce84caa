import Foundation
import Glibc

/// A datagram socket standing in for systemd's notification socket: the test
/// binds it, passes its name as `NOTIFY_SOCKET`, and reads what the daemon
/// says (`READY=1`, `STATUS=…`, `WATCHDOG=1`, …), one message per datagram.
final class FakeNotifySocket {
  let descriptor: Int32
  /// The value for `NOTIFY_SOCKET`: a path, or `@name` for an abstract socket.
  let name: String
  private(set) var received: [(fields: [String], at: ContinuousClock.Instant)] = []

  convenience init(path: String) throws {
    try self.init(name: path, bytes: Array(path.utf8) + [0])
  }

  /// An abstract socket, `@name`.
  convenience init(abstract: String) throws {
    try self.init(name: "@" + abstract, bytes: [0] + Array(abstract.utf8))
  }

  private init(name: String, bytes: [UInt8]) throws {
    self.name = name
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw DaemonTestError("socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else { throw DaemonTestError("bind \(name): errno \(errno)") }
  }

  deinit { close(descriptor) }

  /// The next message's fields, or nil if none comes within `timeout`.
  func next(timeout: Duration = .seconds(20)) -> [String]? {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout / .milliseconds(1))) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(descriptor, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
    received.append((fields, .now))
    return fields
  }

  /// Reads messages until one has `field` (e.g. `READY=1`); returns it.
  func waitFor(_ field: String, timeout: Duration = .seconds(20)) throws -> [String] {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let fields = next(timeout: deadline - .now), fields.contains(where: { $0 == field || (field.hasSuffix("=") && $0.hasPrefix(field)) }) {
        return fields
      }
    }
    throw DaemonTestError("no \(field) within \(timeout); received: \(received.map(\.fields))")
  }
}
