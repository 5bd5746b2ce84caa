import Foundation

/// Renders a value as indented, stable text for failure messages: one field per
/// line so that a line diff shows exactly which fields differ.
enum ValueDump {
  static func lines(_ value: Any) -> [String] {
    var lines: [String] = []
    dump(value, label: nil, indent: 0, into: &lines, trailingComma: false)
    return lines
  }

  static func string(_ value: Any) -> String { lines(value).joined(separator: "\n") }

  /// A compact one-line rendering, for naming actions in messages.
  static func oneLine(_ value: Any) -> String {
    var text = lines(value).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    for (spaced, tight) in [("( ", "("), ("[ ", "["), (", )", ")"), (", ]", "]"), (" )", ")"), (" ]", "]")] {
      text = text.replacingOccurrences(of: spaced, with: tight)
    }
    return text
  }

  private static func dump(_ value: Any, label: String?, indent: Int, into lines: inout [String], trailingComma: Bool) {
    let pad = String(repeating: "  ", count: indent)
    let prefix = pad + (label.map { "\($0): " } ?? "")
    let comma = trailingComma ? "," : ""

    let mirror = Mirror(reflecting: value)
    // Optionals first: casts from `Any` see through them, so a leaf check
    // would print `Optional(500)`.
    if mirror.displayStyle != .optional, let leaf = leafDescription(value) {
      lines.append(prefix + leaf + comma)
      return
    }
    switch mirror.displayStyle {
    case .optional:
      if let child = mirror.children.first {
        dump(child.value, label: label, indent: indent, into: &lines, trailingComma: trailingComma)
      } else {
        lines.append(prefix + "nil" + comma)
      }
    case .collection, .set:
      let children = Array(mirror.children)
      if children.isEmpty {
        lines.append(prefix + "[]" + comma)
        return
      }
      let rendered = children.map { child in string(child.value) }
      let ordered = mirror.displayStyle == .set ? rendered.sorted() : rendered
      lines.append(prefix + "[")
      for (offset, element) in ordered.enumerated() {
        let elementLines = element.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in elementLines.enumerated() {
          let last = index == elementLines.count - 1
          lines.append(pad + "  " + line + (last && offset < ordered.count - 1 ? "," : ""))
        }
      }
      lines.append(pad + "]" + comma)
    case .dictionary:
      let pairs = mirror.children.map { child -> (String, Any) in
        let pair = Array(Mirror(reflecting: child.value).children)
        return (oneLine(pair[0].value), pair[1].value)
      }.sorted { $0.0 < $1.0 }
      if pairs.isEmpty {
        lines.append(prefix + "[:]" + comma)
        return
      }
      lines.append(prefix + "[")
      for (offset, pair) in pairs.enumerated() {
        dump(pair.1, label: pair.0, indent: indent + 1, into: &lines, trailingComma: offset < pairs.count - 1)
      }
      lines.append(pad + "]" + comma)
    case .enum:
      let caseName = String(String(describing: value).prefix { $0 != "(" })
      guard let payload = mirror.children.first else {
        lines.append(prefix + "." + caseName + comma)
        return
      }
      let name = payload.label ?? caseName
      let payloadMirror = Mirror(reflecting: payload.value)
      if payloadMirror.displayStyle == .tuple {
        lines.append(prefix + "." + name + "(")
        let children = Array(payloadMirror.children)
        for (offset, child) in children.enumerated() {
          let childLabel = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
          dump(
            child.value, label: childLabel, indent: indent + 1, into: &lines, trailingComma: offset < children.count - 1
          )
        }
        lines.append(pad + ")" + comma)
      } else {
        var inner: [String] = []
        dump(payload.value, label: nil, indent: indent + 1, into: &inner, trailingComma: false)
        if inner.count == 1 {
          lines.append(prefix + "." + name + "(" + inner[0].trimmingCharacters(in: .whitespaces) + ")" + comma)
        } else {
          lines.append(prefix + "." + name + "(")
          lines.append(contentsOf: inner)
          lines.append(pad + ")" + comma)
        }
      }
    default:
      let children = Array(mirror.children)
      let typeName = typeName(of: value)
      if children.isEmpty {
        lines.append(prefix + typeName + "()" + comma)
        return
      }
      lines.append(prefix + typeName + "(")
      for (offset, child) in children.enumerated() {
        dump(
          child.value, label: child.label, indent: indent + 1, into: &lines, trailingComma: offset < children.count - 1)
      }
      lines.append(pad + ")" + comma)
    }
  }

  private static func leafDescription(_ value: Any) -> String? {
    switch value {
    case let string as String: return quoted(string)
    case let character as Character: return quoted(String(character))
    case let bool as Bool: return String(bool)
    case is any BinaryInteger, is any BinaryFloatingPoint: return String(describing: value)
    case let uuid as UUID: return uuid.uuidString
    case let date as Date: return date.formatted(.iso8601)
    case let data as Data:
      if let text = String(data: data, encoding: .utf8), !text.isEmpty, data.count <= 512 {
        return "Data(" + quoted(text) + ")"
      }
      return "Data(\(data.count) bytes)"
    case let duration as Duration: return String(describing: duration)
    default: return nil
    }
  }

  private static func quoted(_ string: String) -> String {
    "\""
      + string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n") + "\""
  }

  private static func typeName(of value: Any) -> String {
    var name = String(reflecting: type(of: value))
    // Drop the module name for readability: "Features.Counter.State" → "Counter.State".
    if let dot = name.firstIndex(of: "."), !name[..<dot].contains("<") {
      name = String(name[name.index(after: dot)...])
    }
    return name
  }
}
