import JSON
import Wire

/// Renders JSON for people: indented with sorted keys (`get`, and the state
/// `watch` starts from). One-line values go through ``ValueText``.
enum JSONPrinter {
  static func pretty(_ value: JSONValue, indent: String = "") -> String {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      let inner = indent + "  "
      return "[\n" + elements.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
    case .object(let members) where !members.isEmpty:
      let inner = indent + "  "
      return "{\n"
        + members.sorted { $0.key < $1.key }.map {
          inner + CanonicalJSON.text(.string($0.key)) + ": " + pretty($0.value, indent: inner)
        }
        .joined(separator: ",\n") + "\n\(indent)}"
    default:
      return CanonicalJSON.text(value)
    }
  }
}
