import Foundation
import Glibc

/// A fresh directory under /tmp for one test, removed with everything in it
/// when the test lets go of it.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/effectworker-test-XXXXXX".utf8CString)
    guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw WorkerTestError("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    path = String(cString: created)
  }

  deinit {
    // A test may have made something read-only to provoke an error.
    _ = chmod(path, 0o700)
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `name` inside the directory.
  func appending(_ name: String) -> String { path + "/" + name }
}

/// A test's own failure, with a sentence saying what did not happen.
struct WorkerTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
