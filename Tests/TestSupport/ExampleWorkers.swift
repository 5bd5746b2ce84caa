import Foundation
import Glibc

/// The worker programs of `Examples/`, written in other languages, for tests
/// that run them as the daemon does.
public enum ExampleWorkers {
  /// The repository's root, found from this file's path.
  public static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The Todos app's `export` worker, a Python 3 script.
  public static let todosExport = repositoryRoot + "/Examples/Todos/Workers/todos-export"

  /// The `PATH` the workers run with: the test's own, where `python3` is.
  public static var path: String { ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin" }

  /// The `python3` the scripts' `#!/usr/bin/env python3` finds on ``path``.
  ///
  /// - Throws: ``ExampleWorkerError`` when there is none, so that a test
  ///   that needs it fails saying so rather than passing without it.
  public static func python3() throws -> String {
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/python3"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    throw ExampleWorkerError(
      "python3 is not on the PATH (\(path)); the example workers need it: install Debian's python3 "
        + "(apt-get install python3, as .ci/run does)")
  }
}

/// An example worker cannot run here.
public struct ExampleWorkerError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
