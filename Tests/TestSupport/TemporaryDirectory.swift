import Foundation
import Glibc

/// A fresh directory under /tmp for one test, removed with everything in it
/// when the test lets go of it.
public final class TemporaryDirectory: Sendable {
  public let path: String

  /// Creates `/tmp/<prefix>-XXXXXX`.
  public init(prefix: String = "storedaemon-test") throws {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw TemporaryDirectoryError(description: "mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    path = String(cString: created)
  }

  deinit {
    // A test may have made it read-only to provoke an error.
    _ = chmod(path, 0o700)
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `name` inside the directory.
  public func appending(_ name: String) -> String { path + "/" + name }
}

/// The temporary directory could not be made.
public struct TemporaryDirectoryError: Error, CustomStringConvertible {
  public let description: String
}
