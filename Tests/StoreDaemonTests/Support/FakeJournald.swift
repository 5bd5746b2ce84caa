import Glibc
import Platform

/// A datagram socket standing in for journald's native socket
/// (`/run/systemd/journal/socket`): the test binds it, passes its path as
/// `STOREDAEMON_JOURNAL_SOCKET` (debug builds), and reads each entry the
/// daemon and its workers send, as its fields.
final class FakeJournald {
  let path: String
  private let descriptor: Int32

  init(path: String) throws {
    self.path = path
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw DaemonTestError("socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8) + [0]
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else { throw DaemonTestError("bind \(path): errno \(errno)") }
  }

  deinit { close(descriptor) }

  /// The next entry's fields, in order, or nil if none comes within `timeout`.
  func next(timeout: Duration = eventTimeout) -> [(String, String)]? {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout / .milliseconds(1))) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    let count = recv(descriptor, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return JournalNative.fields(of: Array(buffer[..<count]))
  }

  /// Reads entries until one satisfies `predicate`, and returns it.
  func entry(where predicate: ([String: String]) -> Bool) throws -> [String: String] {
    while let fields = next() {
      let entry = Dictionary(fields, uniquingKeysWith: { first, _ in first })
      if predicate(entry) { return entry }
    }
    throw DaemonTestError("no journal entry came that matched")
  }
}
