/// Why bytes on a connection are not a valid frame.
public enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The header announces a payload larger than the connection allows. Checked
  /// from the 4-byte header alone, before any payload is read or allocated.
  case oversized(length: UInt32, maximum: UInt32)
  /// The connection closed in the middle of a frame.
  case truncated(expected: Int, received: Int)

  public var description: String {
    switch self {
    case .oversized(let length, let maximum):
      "frame of \(length) bytes exceeds the maximum of \(maximum) bytes"
    case .truncated(let expected, let received):
      "connection closed inside a frame: \(received) of \(expected) bytes received"
    }
  }
}
