import JSON
import Wire

/// How every command that shows changes (`watch`, `log`, `send --wait`)
/// writes them, one convention for all:
///
/// ```
/// v3  dice.internal.startAnimation
///     ~ /dice/rollAnimationAngle: 0 → 360
///     + /cart/items/0: {"id":3,"quantity":1}
///     - /dice/errorMessage: "the timer worker is not running"
///     > /todos/0: moved from /todos/3
/// ```
///
/// A header line per version (`log` adds when and who), then one indented
/// line per operation: `+` added, `-` removed (with what was removed), `~`
/// replaced (old → new), `>` moved. Values and the action are cut by
/// ``ValueText``; `?` stands for a value `tcactl` cannot know.
enum ChangeText {
  /// The header of one version's changes: `v12  cart.addItem 3`, with
  /// `details` (time, sender) between the version and the action.
  static func header(version: UInt64, details: [String] = [], action: String, full: Bool) -> String {
    ([Terminal.bold("v\(version)")] + details.map(Terminal.dim) + [ValueText.cut(action, full: full)])
      .joined(separator: "  ")
  }

  /// The indented line for one change.
  static func line(_ change: Change, full: Bool) -> String {
    "    " + text(change, full: full)
  }

  /// One change, unindented.
  static func text(_ change: Change, full: Bool) -> String {
    let old: String
    switch change.before {
    case .value(let value): old = ValueText.text(value, full: full)
    case .absent, .unknown: old = "?"
    }
    switch change.operation {
    case .add(let path, let value):
      return Terminal.green("+ \(display(path)): \(ValueText.text(value, full: full))")
    case .remove(let path):
      return Terminal.red("- \(display(path)): \(old)")
    case .replace(let path, let value):
      return Terminal.yellow("~ \(display(path)): \(old) → \(ValueText.text(value, full: full))")
    case .move(let from, let path):
      return "> \(display(path)): moved from \(display(from))"
    case .copy(let from, let path):
      return Terminal.green("+ \(display(path)): copy of \(display(from))")
    case .test(let path, let value):
      return "= \(display(path)): \(ValueText.text(value, full: full))"
    }
  }

  /// A path as written in a change: the JSON Pointer, or `(all)` for the
  /// whole document (a watched part replaced as a whole).
  static func display(_ path: JSONPointer) -> String {
    path.isRoot ? "(all)" : path.description
  }
}
