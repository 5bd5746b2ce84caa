import Glibc
import Platform

/// Where a runtime issue was detected: a file and line, carried so that a test
/// failure points at the test's own line rather than at the library.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var fileID: String
  public var line: Int

  public init(fileID: String = #fileID, line: Int = #line) {
    self.fileID = fileID
    self.line = line
  }

  public var description: String { "\(fileID):\(line)" }
}

/// Receives the runtime issues the core detects (an action for a missing
/// element, a dependency used in a test without an override, ...).
///
/// The core never traps on such issues: a long-running daemon logs them and goes
/// on, while a test turns them into failures. The reporter in effect is a task
/// local, so concurrent tests each see their own.
public struct IssueReporter: Sendable {
  public let report: @Sendable (_ message: String, _ location: SourceLocation?) -> Void

  public init(report: @escaping @Sendable (_ message: String, _ location: SourceLocation?) -> Void) {
    self.report = report
  }

  /// Writes the issue to standard error, after the program's name, the
  /// default outside tests. (A daemon logs them its own way.)
  public static let standardError = IssueReporter { message, location in
    let program = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "runtime"
    var line = "\(program): runtime issue: \(message)"
    if let location { line += " (\(location))" }
    line += "\n"
    StandardStream.error.write(line)
  }

  /// The reporter used by ``reportIssue(_:location:)`` on this task.
  @TaskLocal public static var current: IssueReporter = .standardError
}

/// Reports a runtime issue to the current ``IssueReporter``.
public func reportIssue(_ message: String, location: SourceLocation? = nil) {
  IssueReporter.current.report(message, location)
}
