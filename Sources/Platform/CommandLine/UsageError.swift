/// A command line a program cannot act on: one sentence naming the word,
/// option or value that does not fit and what was expected. Each program
/// prints it its own way (with its usage, or a hint at its help) and exits
/// with its usage status.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  /// The subcommand the line was for, when it named a known one: the help a
  /// program with subcommands (`tcactl`) points at.
  public var topic: String?

  public init(_ description: String, topic: String? = nil) {
    self.description = description
    self.topic = topic
  }

  /// `option` was given `value`, which is not `expected`:
  /// "--max-clients takes a number between 1 and 100000, got '0'".
  public static func invalidValue(_ value: String, for option: String, expected: String) -> UsageError {
    UsageError("\(option) takes \(expected), got '\(value)'")
  }
}
