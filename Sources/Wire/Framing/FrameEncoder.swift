/// Writes frames: a 4-byte big-endian unsigned payload length, then the payload.
public enum FrameEncoder {
  /// The bytes of one frame carrying `payload`.
  ///
  /// - Throws: ``FrameError/oversized(length:maximum:)`` when `payload` is longer
  ///   than `maximum`, so a sender never writes a frame its peer must refuse.
  public static func frame(_ payload: some Collection<UInt8>, maximum: UInt32 = FrameDecoder.defaultMaximum)
    throws(FrameError) -> [UInt8]
  {
    guard payload.count <= Int(maximum) else {
      throw .oversized(length: UInt32(clamping: payload.count), maximum: maximum)
    }
    let length = UInt32(payload.count)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(4 + payload.count)
    bytes.append(UInt8(truncatingIfNeeded: length >> 24))
    bytes.append(UInt8(truncatingIfNeeded: length >> 16))
    bytes.append(UInt8(truncatingIfNeeded: length >> 8))
    bytes.append(UInt8(truncatingIfNeeded: length))
    bytes.append(contentsOf: payload)
    return bytes
  }
}
