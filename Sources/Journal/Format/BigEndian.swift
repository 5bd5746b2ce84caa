/// Big-endian integers in byte buffers: the journal's headers are written in
/// network byte order, like the wire protocol's frame lengths.
extension Array where Element == UInt8 {
  mutating func appendBigEndian(_ value: UInt16) {
    append(UInt8(truncatingIfNeeded: value >> 8))
    append(UInt8(truncatingIfNeeded: value))
  }

  mutating func appendBigEndian(_ value: UInt32) {
    for shift in stride(from: 24, through: 0, by: -8) {
      append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
    }
  }

  mutating func appendBigEndian(_ value: UInt64) {
    for shift in stride(from: 56, through: 0, by: -8) {
      append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }
}

extension UnsafeRawBufferPointer {
  /// The big-endian `UInt16` at `offset`; the caller checks the bounds.
  func bigEndianUInt16(at offset: Int) -> UInt16 {
    UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
  }

  /// The big-endian `UInt32` at `offset`; the caller checks the bounds.
  func bigEndianUInt32(at offset: Int) -> UInt32 {
    UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// The big-endian `UInt64` at `offset`; the caller checks the bounds.
  func bigEndianUInt64(at offset: Int) -> UInt64 {
    UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }
}
