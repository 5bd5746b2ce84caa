import Glibc
import Platform

/// The commands waiting to be written to one effect worker's socket,
/// bounded, so that a worker that reads slowly never makes the daemon wait
/// or grow without bound: past ``limit`` bytes waiting, a new command is
/// refused (and its request fails).
///
/// The store loop writes it without ever waiting: what the socket takes
/// at once leaves, and the rest waits, in order, for the poll to say the
/// socket has room.
struct WorkerCommandQueue {
  /// The most bytes that may wait.
  let limit: Int
  /// The bytes waiting are `bytes[start...]`.
  private var bytes: [UInt8] = []
  private var start = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// Whether nothing waits to be written.
  var isEmpty: Bool { start == bytes.count }

  /// The bytes waiting.
  var count: Int { bytes.count - start }

  /// Queues `frame` unless the bytes waiting would pass the limit (an empty
  /// queue takes a frame of any size); returns whether it was queued.
  mutating func offer(_ frame: [UInt8]) -> Bool {
    if !isEmpty && count + frame.count > limit { return false }
    bytes += frame
    return true
  }

  /// Writes what waits to `descriptor` without waiting; returns whether
  /// everything was written. What the socket does not take (`EAGAIN`)
  /// stays, a frame's remainder first.
  ///
  /// - Throws: the failed `send`, when the worker's end is gone.
  mutating func write(to descriptor: Int32) throws(SocketError) -> Bool {
    while !isEmpty {
      let written = bytes.withUnsafeBytes { buffer in
        // invariant: !isEmpty: the buffer holds the bytes to send, so it has a base address
        send(descriptor, buffer.baseAddress! + start, count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
      }
      if written > 0 {
        start += written
      } else if written < 0 && errno == EINTR {
        continue
      } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        compact()
        return false
      } else {
        throw SocketError("send")
      }
    }
    clear()
    return true
  }

  /// Drops everything waiting.
  mutating func clear() {
    // A burst's buffer is given back; a small one is kept for the next.
    if bytes.capacity > Self.keptCapacity {
      bytes = []
    } else {
      bytes.removeAll(keepingCapacity: true)
    }
    start = 0
  }

  /// Moves what waits to the front once most of the buffer is written.
  private mutating func compact() {
    guard start > Self.keptCapacity, start * 2 > bytes.count else { return }
    bytes.removeFirst(start)
    start = 0
  }

  private static let keptCapacity = 64 * 1024
}
