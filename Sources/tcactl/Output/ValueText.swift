import JSON
import Wire

/// The one rule by which `tcactl` shortens what it shows on a line: a value
/// of the state (compact JSON) or an action's command line longer than
/// ``width`` characters is cut to its first `width - 1` characters and `…`.
///
/// `watch`, `log` and `send --wait` all write their changes through it, so a
/// 20-product catalog takes one line wherever it appears; `--full` shows every
/// value whole, and `--json` output is never cut. `get` and the state `watch`
/// starts from are printed whole: they are the state asked for, not a change.
enum ValueText {
  /// The most characters a value or an action takes on a line.
  static let width = 60

  /// `value` as compact JSON, cut to ``width`` unless `full`.
  static func text(_ value: JSONValue, full: Bool) -> String {
    cut(CanonicalJSON.text(value), full: full)
  }

  /// `text` whole if `full` or short enough; else its first `width - 1`
  /// characters and `…`.
  static func cut(_ text: String, full: Bool) -> String {
    guard !full, text.count > width else { return text }
    return String(text.prefix(width - 1)) + "…"
  }
}
