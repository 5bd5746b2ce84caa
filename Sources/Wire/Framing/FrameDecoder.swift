/// Splits a byte stream into frames: a 4-byte big-endian unsigned payload
/// length, then that many bytes.
///
/// Bytes arrive in arbitrary pieces; ``append(_:)`` buffers them and
/// ``nextFrame()`` returns a payload only when it is complete, consuming nothing
/// otherwise. A header announcing more than ``maximum`` bytes fails at once,
/// from the header alone, before any payload is buffered for it.
public struct FrameDecoder: Sendable {
  /// The default maximum payload: 16 MiB.
  public static let defaultMaximum: UInt32 = 16 << 20

  /// The largest payload accepted.
  public let maximum: UInt32
  private var buffer: [UInt8] = []
  private var readIndex = 0

  public init(maximum: UInt32 = FrameDecoder.defaultMaximum) {
    self.maximum = maximum
  }

  /// Bytes received but not yet returned as frames.
  public var bufferedByteCount: Int { buffer.count - readIndex }

  /// Adds bytes read from the connection.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    if readIndex > 0 && readIndex * 2 >= buffer.count {
      buffer.removeFirst(readIndex)
      readIndex = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Adds bytes read from the connection into a buffer of the reader's.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if readIndex > 0 && readIndex * 2 >= buffer.count {
      buffer.removeFirst(readIndex)
      readIndex = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete payload, or `nil` if more bytes are needed.
  ///
  /// - Throws: ``FrameError/oversized(length:maximum:)`` as soon as a header
  ///   announces too large a payload; the decoder is then unusable, as the
  ///   stream cannot be resynchronised.
  public mutating func nextFrame() throws(FrameError) -> [UInt8]? {
    try nextFrame { Array($0) }
  }

  /// Hands the next complete payload to `body` where it lies in the
  /// decoder's buffer, valid only during the call, and returns what `body`
  /// does; `nil` if more bytes are needed. A reader that takes what it
  /// needs from the bytes copies none of them. `body` must not reach this
  /// decoder (an `append` would move the bytes it reads), nor keep a
  /// pointer to the bytes.
  ///
  /// - Throws: as ``nextFrame()``.
  public mutating func nextFrame<Result>(
    _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(FrameError) -> Result? {
    guard bufferedByteCount >= 4 else { return nil }
    let length =
      UInt32(buffer[readIndex]) << 24 | UInt32(buffer[readIndex + 1]) << 16
      | UInt32(buffer[readIndex + 2]) << 8 | UInt32(buffer[readIndex + 3])
    guard length <= maximum else { throw .oversized(length: length, maximum: maximum) }
    guard bufferedByteCount >= 4 + Int(length) else { return nil }
    let start = readIndex + 4
    readIndex = start + Int(length)
    return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + Int(length)])) }
  }

  /// Called when the connection closed: fails if a frame was left incomplete.
  public func finish() throws(FrameError) {
    guard bufferedByteCount > 0 else { return }
    var expected = 4
    if bufferedByteCount >= 4 {
      let length =
        Int(buffer[readIndex]) << 24 | Int(buffer[readIndex + 1]) << 16 | Int(buffer[readIndex + 2]) << 8
        | Int(buffer[readIndex + 3])
      expected = 4 + length
    }
    throw .truncated(expected: expected, received: bufferedByteCount)
  }
}
