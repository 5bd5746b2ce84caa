import Glibc

/// A script a test writes for another process to run.
///
/// Written through a descriptor opened close-on-exec: a process that
/// another test starts meanwhile, from another thread, must not inherit
/// the descriptor, or the file stays open for writing for as long as that
/// process lives, and running it fails with `ETXTBSY` ("Text file busy").
public enum ExecutableFile {
  /// A system call that failed, with what it was asked and its errno.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }

  /// Writes `text` to `path`, executable by its owner and readable by all.
  public static func write(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw ExecutableFile.Failure("open \(path) for writing: errno \(errno)") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw ExecutableFile.Failure("write \(path): errno \(errno)") }
      written += count
    }
    guard fchmod(fd, 0o755) == 0 else { throw ExecutableFile.Failure("chmod \(path): errno \(errno)") }
  }
}
