import Glibc

/// A system call that failed: which call, on which file, and the `errno` it
/// set, e.g. `fdatasync of /var/lib/storedaemon/journal/…01.journal failed:
/// Input/output error (EIO)`.
public struct SystemFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The call or step, e.g. `open`, `write`, `fdatasync`, `rename`.
  public let operation: String
  /// The file or directory it was applied to.
  public let path: String
  /// The `errno` value.
  public let code: Int32
  /// What a person needs beyond the system's message, when more is known.
  public let detail: String?

  public init(_ operation: String, path: String, code: Int32, detail: String? = nil) {
    self.operation = operation
    self.path = path
    self.code = code
    self.detail = detail
  }

  /// The failure of `operation` with the current `errno`.
  package static func last(_ operation: String, path: String) -> SystemFailure {
    SystemFailure(operation, path: path, code: errno)
  }

  public var description: String {
    "\(operation) of \(path) failed: \(detail ?? Self.describe(code))"
  }

  /// Whether the failure means there is no room to write: the file system is
  /// full (`ENOSPC`), the user's quota is used up (`EDQUOT`), or the process's
  /// file size limit (`RLIMIT_FSIZE`) is reached (`EFBIG`). The writer treats
  /// these as rejections of one batch, not as a broken journal.
  public var isNoSpace: Bool {
    code == ENOSPC || code == EDQUOT || code == EFBIG
  }

  /// `errno`'s message and symbolic name: `No space left on device (ENOSPC)`.
  public static func describe(_ code: Int32) -> String {
    let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
    guard let name = names[code] else { return "\(message) (errno \(code))" }
    return "\(message) (\(name))"
  }

  /// The names of the errors the journal is likely to meet, for messages that
  /// a person can search for.
  package static let names: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", EBADF: "EBADF", EAGAIN: "EAGAIN",
    ENOMEM: "ENOMEM", EACCES: "EACCES", EEXIST: "EEXIST", EXDEV: "EXDEV", ENOTDIR: "ENOTDIR",
    EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", EFBIG: "EFBIG",
    ENOSPC: "ENOSPC", EROFS: "EROFS", ENAMETOOLONG: "ENAMETOOLONG", ELOOP: "ELOOP", EDQUOT: "EDQUOT",
    ENOTEMPTY: "ENOTEMPTY", ESTALE: "ESTALE",
  ]
}
