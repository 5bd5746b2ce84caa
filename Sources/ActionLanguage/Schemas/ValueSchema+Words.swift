import FoundationEssentials
import JSON

/// Why a word is not a value of a schema: what was expected ("an Int") and,
/// where it helps, more detail.
struct WordMismatch: Error {
  let expected: String
  let problem: String?
}

extension ValueSchema {
  /// The JSON value that command-line `word` stands for: its plain form
  /// (`3`, `hello`, `products`), or a JSON literal of the right type
  /// (`"hello world"`, `null`, `{"kind":"timeout","message":"…"}`).
  func value(fromWord word: String) throws(WordMismatch) -> JSONValue {
    switch kind {
    case .int:
      if let value = Int(word) { return .int(value) }
      if case .int(let value)? = JSONValue(jsonText: word) { return .int(value) }
    case .double:
      if let value = Double(word), value.isFinite { return Self.number(value) }
      switch JSONValue(jsonText: word) {
      case .int(let value)?: return .int(value)
      case .double(let value)?: return Self.number(value)
      default: break
      }
    case .string:
      return .string(Self.unquoted(word))
    case .bool:
      if word == "true" || word == "false" { return .bool(word == "true") }
    case .uuid:
      if let uuid = UUID(uuidString: Self.unquoted(word)) { return .string(uuid.uuidString) }
    case .optional(let wrapped):
      if word == "null" || word == "nil" { return .null }
      do {
        return try wrapped.value(fromWord: word)
      } catch {
        throw WordMismatch(expected: error.expected + " or null", problem: error.problem)
      }
    case .enumeration(let enumeration):
      let text = Self.unquoted(word)
      if let rawValue = enumeration.rawValue(matching: text) { return .string(rawValue) }
      let near = Suggestions.nearest(to: text, among: enumeration.rawValues)
      throw WordMismatch(
        expected: Self.article(enumeration.typeName),
        problem: near.isEmpty
          ? "expected one of: \(enumeration.rawValues.joined(separator: ", "))"
          : "did you mean \(Suggestions.alternatives(near))?")
    case .json(let opaque):
      guard let json = JSONValue(jsonText: word) else {
        throw WordMismatch(expected: "JSON for \(opaque.typeName)", problem: "it does not parse as JSON")
      }
      if let problem = opaque.problem(with: json) {
        throw WordMismatch(expected: "JSON for \(opaque.typeName)", problem: problem)
      }
      return json
    case .action, .identified, .stack, .binding:
      if let json = JSONValue(jsonText: word), self.word(for: json) != nil { return json }
      throw WordMismatch(expected: "JSON for \(typeName)", problem: nil)
    }
    throw WordMismatch(expected: expectation, problem: nil)
  }

  /// The command-line word for `value`, or `nil` when `value` does not fit
  /// this schema. ``value(fromWord:)`` reads the word back as `value`.
  func word(for value: JSONValue) -> String? {
    switch (kind, value) {
    case (.int, .int(let number)), (.double, .int(let number)): return "\(number)"
    case (.double, .double(let number)): return "\(number)"
    case (.string, .string(let text)): return Self.unquoted(text) == text ? text : CanonicalJSON.text(.string(text))
    case (.bool, .bool(let flag)): return "\(flag)"
    case (.uuid, .string(let text)): return UUID(uuidString: text)?.uuidString == text ? text : nil
    case (.optional, .null): return "null"
    case (.optional(let wrapped), _):
      guard let word = wrapped.word(for: value) else { return nil }
      return word == "null" || word == "nil" ? CanonicalJSON.text(.string(word)) : word
    case (.enumeration(let enumeration), .string(let text)): return enumeration.rawValues.contains(text) ? text : nil
    case (.json, _): return CanonicalJSON.text(value)
    case (.action(let reference), _):
      return ActionRenderer.command(for: value, schema: reference.schema) != nil ? CanonicalJSON.text(value) : nil
    case (.identified(let id, let element), _):
      guard let (idValue, action) = ActionRenderer.element(value), id.word(for: idValue) != nil,
        ActionRenderer.command(for: action, schema: element.schema) != nil
      else { return nil }
      return CanonicalJSON.text(value)
    case (.stack(let element, let operations), _):
      if let (idValue, action) = ActionRenderer.element(value) {
        guard ValueSchema.int.word(for: idValue) != nil,
          ActionRenderer.command(for: action, schema: element.schema) != nil
        else { return nil }
      } else if ActionRenderer.command(for: value, schema: operations.schema) == nil {
        return nil
      }
      return CanonicalJSON.text(value)
    case (.binding(let binding), _):
      return ActionRenderer.bindingWord(value, binding) != nil ? CanonicalJSON.text(value) : nil
    default: return nil
    }
  }

  /// What a word must be, for errors: "an Int", "a UUID", "an AppTab".
  var expectation: String {
    switch kind {
    case .bool: "true or false"
    case .double: "a number"
    case .optional(let wrapped): wrapped.expectation + " or null"
    case .json, .action, .identified, .stack, .binding: "JSON for \(typeName)"
    default: Self.article(typeName)
    }
  }

  /// `name` with "a" or "an" before it.
  static func article(_ name: String) -> String {
    ("AEIOaeio".contains(name.first ?? "x") ? "an " : "a ") + name
  }

  /// `word` without surrounding quotes: a JSON string literal is decoded,
  /// single quotes are dropped; any other word is itself.
  static func unquoted(_ word: String) -> String {
    guard word.count >= 2, let first = word.first, first == word.last else { return word }
    if first == "\"", case .string(let text)? = JSONValue(jsonText: word) { return text }
    if first == "'" { return String(word.dropFirst().dropLast()) }
    return word
  }

  /// A number as JSON canonically holds it: whole numbers as integers, as a
  /// decoded `Double` of 3.0 re-encodes to `3`.
  private static func number(_ value: Double) -> JSONValue {
    if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return .int(Int(value)) }
    return .double(value)
  }
}

extension ValueSchema {
  /// Why `value` is not a value of this schema, or `nil` when it is: what a
  /// binding's value, which travels as any JSON, is checked with.
  func problem(with value: JSONValue) -> String? {
    switch kind {
    case .json(let opaque):
      return opaque.problem(with: value).map { "expected JSON for \(opaque.typeName): \($0)" }
    case .optional(let wrapped):
      return value == .null ? nil : wrapped.problem(with: value)
    default:
      return word(for: value) == nil ? "expected \(expectation), got \(CanonicalJSON.text(value))" : nil
    }
  }
}
