import Foundation
import Glibc

/// A loopback TCP server that answers every connection with fixed bytes and
/// closes it: for answers a well-behaved HTTP server never gives (a body
/// without `Content-Length` that ends at close, a response cut short).
///
/// It reads the request head (up to the blank line) before answering, so the
/// client has sent its request; it does not read a body. With `pause`, the
/// answer trickles: `chunk` bytes, then a pause, and so on, the way a server
/// that keeps a connection busy without ever finishing does.
final class RawHTTPResponder: Sendable {
  let port: UInt16
  private let listener: Int32

  init(answer: [UInt8], chunk: Int = .max, pause: Duration = .zero) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw WorkerTestError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      let error = WorkerTestError("bind or listen on 127.0.0.1: \(String(cString: strerror(errno)))")
      close(listener)
      throw error
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    Thread.detachNewThread {
      // Ends when `deinit` shuts the listener down and accept fails; only
      // then is the listener closed, so its number cannot be reused under us.
      while true {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else {
          switch errno {
          case EINVAL:
            // Shut down by `deinit`: the listener is this thread's to close.
            close(listener)
            return
          case EBADF:
            return
          default:
            // Interrupted, or a connection aborted before it was accepted:
            // the listener is still open, and closing it now would let
            // `deinit` shut down a number reused by someone else.
            usleep(1_000)
            continue
          }
        }
        Self.answer(connection, with: answer, chunk: chunk, pause: pause)
      }
    }
  }

  deinit {
    shutdown(listener, Int32(SHUT_RDWR))
  }

  /// `http://127.0.0.1:<port><path>`.
  func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }

  private static func answer(_ connection: Int32, with bytes: [UInt8], chunk: Int, pause: Duration) {
    defer { close(connection) }
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.ends(with: Array("\r\n\r\n".utf8)) {
      let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      head += buffer[..<count]
      if let end = head.firstRange(of: Array("\r\n\r\n".utf8)) { head.removeSubrange(end.upperBound...) }
    }
    var offset = 0
    while offset < bytes.count {
      let length = min(chunk, bytes.count - offset)
      let count = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + offset, length, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else { return }
      offset += count
      if pause > .zero && offset < bytes.count {
        let (seconds, attoseconds) = pause.components
        usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
      }
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
