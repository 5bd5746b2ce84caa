import ComposableCore
import Wire

/// Renders JSON for people: indented with sorted keys, or compact on one line.
enum JSONPrinter {
  static func pretty(_ value: JSONValue, indent: String = "") -> String {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      let inner = indent + "  "
      return "[\n" + elements.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
    case .object(let members) where !members.isEmpty:
      let inner = indent + "  "
      return "{\n"
        + members.sorted { $0.key < $1.key }.map { inner + CanonicalJSON.text(.string($0.key)) + ": " + pretty($0.value, indent: inner) }
        .joined(separator: ",\n") + "\n\(indent)}"
    default:
      return CanonicalJSON.text(value)
    }
  }

  /// Compact JSON, cut to `limit` characters with an ellipsis.
  static func short(_ value: JSONValue, limit: Int = 100) -> String {
    let text = CanonicalJSON.text(value)
    return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }
}
