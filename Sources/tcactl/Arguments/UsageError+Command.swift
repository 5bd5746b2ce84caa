import Platform

/// A command line `tcactl` cannot act on. It is shown as one line saying what
/// is wrong, then one line saying where help is, and `tcactl` exits 2:
///
/// ```
/// tcactl: --at does not apply to watch (only to get)
/// run 'tcactl help watch' for usage
/// ```
extension UsageError {
  init(_ description: String, command: Command?) {
    self.init(description, topic: command?.rawValue)
  }

  /// The command the line was for, if it named a known one: the help the
  /// hint points at.
  var command: Command? {
    get { topic.flatMap(Command.init(rawValue:)) }
    set { topic = newValue?.rawValue }
  }

  /// Where help is: `run 'tcactl help send' for usage`, or `tcactl --help`
  /// when no command is known.
  var hint: String {
    if let command, command != .help, command != .version { return "run 'tcactl help \(command.rawValue)' for usage" }
    return "run 'tcactl --help' for usage"
  }
}
