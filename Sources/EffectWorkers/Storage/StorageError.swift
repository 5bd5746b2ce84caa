import Glibc

/// A storage operation that failed: what was attempted on which file, and
/// why, so a person can find the file and fix the cause.
struct StorageError: Error, Equatable, Sendable, CustomStringConvertible {
  enum Reason: Equatable, Sendable {
    /// A system call failed with this `errno`.
    case system(errno: Int32)
    /// A document or a listing is larger than the worker carries; the
    /// sentence says which limit.
    case limit(String)
    /// The path exists but is not a regular file (a directory, a device).
    case notARegularFile
  }

  /// What was attempted: `open`, `read`, `write`, `fsync`, `rename`, …
  let operation: String
  let path: String
  let reason: Reason

  init(_ operation: String, path: String, reason: Reason) {
    self.operation = operation
    self.path = path
    self.reason = reason
  }

  /// A failed system call, with the current `errno`.
  static func system(_ operation: String, path: String, errno code: Int32 = errno) -> StorageError {
    StorageError(operation, path: path, reason: .system(errno: code))
  }

  var description: String {
    switch reason {
    case .system(let code):
      "cannot \(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    case .limit(let sentence):
      "cannot \(operation) \(path): \(sentence)"
    case .notARegularFile:
      "cannot \(operation) \(path): it is not a regular file"
    }
  }
}
