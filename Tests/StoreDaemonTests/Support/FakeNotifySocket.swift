import Foundation
import Glibc
import Testing

/// A datagram socket standing in for systemd's notification socket: the test
/// binds it, passes its name as `NOTIFY_SOCKET`, and reads what the daemon
/// says (`READY=1`, `STATUS=…`, `WATCHDOG=1`, …), one message per datagram.
final class FakeNotifySocket {
  let descriptor: Int32
  /// The value for `NOTIFY_SOCKET`: a path, or `@name` for an abstract socket.
  let name: String
  /// Every message read, with the time the daemon sent it: the kernel's
  /// timestamp (`SO_TIMESTAMPNS`, wall-clock time), taken as the datagram is
  /// queued, not when the test gets round to reading it, so that gaps
  /// between messages are the daemon's own however late the test reads.
  private(set) var received: [(fields: [String], sentAt: Duration)] = []

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
    var on: Int32 = 1
    guard setsockopt(descriptor, SOL_SOCKET, Self.timestampOption, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
      throw DaemonTestError("setsockopt SO_TIMESTAMPNS: errno \(errno)")
    }
  }

  /// `SO_TIMESTAMPNS`, which is also the control message's type; Glibc's
  /// macro chooses between two values and does not reach Swift. 35 on every
  /// 64-bit Linux architecture.
  private static let timestampOption: Int32 = 35

  deinit { close(descriptor) }

  /// The next message's fields, or nil if none comes within `timeout`.
  func next(timeout: Duration = eventTimeout) -> [String]? {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout / .milliseconds(1))) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    var control = [UInt8](repeating: 0, count: 128)
    let (count, sentAt) = buffer.withUnsafeMutableBytes { bytes in
      control.withUnsafeMutableBytes { controlBytes in
        var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
          var message = msghdr()
          message.msg_iov = vectorPointer
          message.msg_iovlen = 1
          message.msg_control = controlBytes.baseAddress
          message.msg_controllen = controlBytes.count
          let count = recvmsg(descriptor, &message, 0)
          return (
            count,
            count > 0
              ? Self.timestamp(in: UnsafeRawBufferPointer(rebasing: controlBytes[..<message.msg_controllen])) : nil
          )
        }
      }
    }
    guard count > 0 else { return nil }
    let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
    if sentAt == nil { Issue.record("a notification came without its kernel timestamp") }
    received.append((fields, sentAt ?? wallClockNow()))
    return fields
  }

  /// The `SCM_TIMESTAMPNS` time in `control`, the ancillary data of one
  /// message: each entry a `cmsghdr` (length, level, type) then its data,
  /// aligned to 8 bytes.
  private static func timestamp(in control: UnsafeRawBufferPointer) -> Duration? {
    let header = MemoryLayout<cmsghdr>.size
    var offset = 0
    while offset + header <= control.count {
      let entry = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
      let length = Int(entry.cmsg_len)
      guard length >= header, offset + length <= control.count else { return nil }
      if entry.cmsg_level == SOL_SOCKET, entry.cmsg_type == timestampOption,
        length >= header + MemoryLayout<timespec>.size
      {
        let time = control.loadUnaligned(fromByteOffset: offset + header, as: timespec.self)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
      }
      offset += (length + 7) & ~7
    }
    return nil
  }

  /// Reads messages until one has `field` (e.g. `READY=1`); returns it.
  func waitFor(_ field: String, timeout: Duration = eventTimeout) throws -> [String] {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let fields = next(timeout: deadline - .now),
        fields.contains(where: { $0 == field || (field.hasSuffix("=") && $0.hasPrefix(field)) })
      {
        return fields
      }
    }
    throw DaemonTestError("no \(field) within \(timeout); received: \(received.map(\.fields))")
  }
}

/// The wall-clock time now, as the kernel stamps datagrams with it.
func wallClockNow() -> Duration {
  var time = timespec()
  clock_gettime(CLOCK_REALTIME, &time)
  return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}
