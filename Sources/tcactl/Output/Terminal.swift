import Glibc
import Platform

/// Writing to the terminal: colours only when standard output is a terminal
/// and `NO_COLOR` is unset.
enum Terminal {
  static let colors = isatty(1) == 1 && getenv("NO_COLOR") == nil

  static func paint(_ text: String, _ code: String) -> String {
    colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  static func green(_ text: String) -> String { paint(text, "32") }
  static func red(_ text: String) -> String { paint(text, "31") }
  static func yellow(_ text: String) -> String { paint(text, "33") }
  static func bold(_ text: String) -> String { paint(text, "1") }
  static func dim(_ text: String) -> String { paint(text, "2") }

  /// Writes `line` to standard output unbuffered, so `watch` output appears at
  /// once in a pipe.
  static func line(_ line: String) {
    StandardStream.output.write(line + "\n")
  }

  /// Prints `tcactl: text` to standard error: every error `tcactl` reports
  /// is one such line.
  static func error(_ text: String) {
    StandardStream.error.write("tcactl: " + text + "\n")
  }

  /// Prints a usage error: what is wrong, then where help is.
  static func usageError(_ error: UsageError) {
    self.error(error.description)
    StandardStream.error.write(error.hint + "\n")
  }
}
