import FoundationEssentials
import Glibc

/// The configuration file's format: one `name = value` per line; blank lines
/// and lines starting with `#` are ignored; the value runs to the end of the
/// line with surrounding spaces trimmed (docs/CLI.md, "Feature settings").
enum ConfigurationFile {
  struct Entry: Equatable {
    let line: Int
    let key: String
    let value: String
  }

  /// The file's entries; throws naming the line of the first malformed one.
  static func parse(_ text: String, path: String) throws(UsageError) -> [Entry] {
    var entries: [Entry] = []
    var seen: [String: Int] = [:]
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.trimmingBlanks
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw UsageError("\(path):\(index + 1): expected 'name = value', got '\(line)'")
      }
      let key = line[..<equals].trimmingBlanks
      let value = line[line.index(after: equals)...].trimmingBlanks
      guard !key.isEmpty else { throw UsageError("\(path):\(index + 1): a setting needs a name before '='") }
      if let first = seen[key] {
        throw UsageError("\(path):\(index + 1): '\(key)' is already set on line \(first)")
      }
      seen[key] = index + 1
      entries.append(Entry(line: index + 1, key: key, value: value))
    }
    return entries
  }
}

extension StringProtocol {
  /// Without the spaces and tabs (and other blanks, but not line breaks) at
  /// either end.
  fileprivate var trimmingBlanks: String {
    let isBlank = { (character: Character) in character.isWhitespace && !character.isNewline }
    return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
  }
}
