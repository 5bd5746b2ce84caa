import Glibc

/// A failed socket operation: what was attempted, on which path, and the
/// system's reason (`errno`), so a person can act on it.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was attempted, e.g. "bind".
  public let operation: String
  /// The socket path, when there is one.
  public let path: String?
  /// The `errno` value, 0 when the failure is not a system error.
  public let errno: Int32
  /// A sentence for a person, when more than the system's reason is known.
  public let detail: String?

  public init(_ operation: String, path: String? = nil, errno: Int32 = Glibc.errno, detail: String? = nil) {
    self.operation = operation
    self.path = path
    self.errno = errno
    self.detail = detail
  }

  public var description: String {
    var text = "\(operation) failed"
    if let path { text += " for \(path)" }
    if errno != 0 { text += ": \(String(cString: strerror(errno)))" }
    if let detail { text += (errno != 0 ? "; " : ": ") + detail }
    return text
  }
}
