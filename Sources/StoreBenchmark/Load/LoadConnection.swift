import Glibc
import Platform

/// One connection of a load run: the bytes read and not yet consumed, and
/// when each outstanding request was sent (oldest first; replies come in
/// request order on one connection, for Redis and for storedaemon).
final class LoadConnection {
  let socket: UnixSocket
  private(set) var buffer: [UInt8] = []
  private var consumed = 0
  private var sentAt: [UInt64] = []
  private var sentHead = 0
  /// Replies received, in all.
  var replies = 0

  /// One read buffer for every connection: the load loops run on one thread.
  nonisolated(unsafe) private static let scratch = UnsafeMutableRawBufferPointer.allocate(
    byteCount: 256 * 1024, alignment: 16)
  // Safe: only the benchmark's main thread runs load loops.

  init(_ socket: UnixSocket) {
    self.socket = socket
  }

  var outstanding: Int { sentAt.count - sentHead }

  /// Writes `count` copies of a request (`batch` holds at least that many,
  /// back to back) and notes when they left.
  func send(_ batch: [UInt8], requestLength: Int, count: Int, at now: UInt64) throws(BenchError) {
    guard count > 0 else { return }
    let bytes = count * requestLength
    let failure = batch.withUnsafeBytes { raw -> BenchError? in
      do throws(BenchError) {
        try socket.writeAll(UnsafeRawBufferPointer(rebasing: raw[0..<bytes]))
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    for _ in 0..<count { sentAt.append(now) }
  }

  /// Reads what is available and calls `reply` with the bounds of each
  /// complete reply and when its request was sent (0 if none was noted).
  /// Returns false at end of file.
  func readReplies(_ framing: Framing, _ reply: (_ start: Int, _ end: Int, _ sentAt: UInt64) throws(BenchError) -> Void)
    throws(BenchError) -> Bool
  {
    let count = Glibc.read(socket.descriptor, Self.scratch.baseAddress!, Self.scratch.count)
    if count == 0 { return false }
    if count < 0 {
      if errno == EAGAIN || errno == EINTR { return true }
      throw BenchError("read: \(String(cString: strerror(errno)))")
    }
    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: Self.scratch[0..<count]))
    while let length = framing.replyLength(in: buffer, at: consumed) {
      var sent: UInt64 = 0
      if sentHead < sentAt.count {
        sent = sentAt[sentHead]
        sentHead += 1
      }
      replies += 1
      try reply(consumed, consumed + length, sent)
      consumed += length
    }
    if consumed == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      consumed = 0
    } else if consumed > 64 * 1024 {
      buffer.removeFirst(consumed)
      consumed = 0
    }
    if sentHead > 4096 && sentHead * 2 > sentAt.count {
      sentAt.removeFirst(sentHead)
      sentHead = 0
    }
    return true
  }

  /// Forgets the replies' send times: for connections whose replies are not
  /// answers to their own requests (subscribers).
  func forgetSends() {
    sentAt.removeAll()
    sentHead = 0
  }
}
