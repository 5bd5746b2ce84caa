import JSON
import Wire

/// Valid and near-valid `send`s for every action a daemon lists, built from
/// its `actions` answer alone (docs/PROTOCOL.md, "Building an action from
/// the `actions` list"), as a client in another language would: the path
/// with its arguments' example words, or the entry's JSON filled with their
/// examples, then spoilt one way at a time: a value left out, `null`, of the
/// wrong kind or nested too deep, a word or a member too many, a step or a
/// case the daemon does not have.
///
/// A valid send must be acknowledged, or refused by the feature for the
/// state it finds (`invalid_action` for a dropped action: nothing presented
/// to dismiss, no row with that id); a near-valid one must be refused with
/// `invalid_action` and a message, never taken.
///
/// It works from the listing alone, as a client in another language would,
/// rather than from the app's Swift types, so that it can fuzz any hosted
/// app's daemon and checks that the listing is enough to write valid and
/// invalid actions; ``ActionVariants`` is the same idea from the types, for
/// the conformance check.
struct SchemaSends {
  /// One send, and whether the daemon may take it.
  struct Send {
    let input: ClientMessage.ActionInput
    let isValid: Bool
    /// What the send is, for a report: the entry's path and what was spoilt.
    let note: String
  }

  /// One listed action, as the `actions` answer gives it.
  struct Entry {
    let path: String
    let json: JSONValue
    let arguments: [(name: String, type: String, example: JSONValue)]
    let ids: [JSONValue]
  }

  /// Each listed action's sends, valid ones first, and how many are valid.
  let sends: [(all: [Send], valid: Int)]
  var random: SplitMix64

  /// The sends for the entries of an `actions` answer (with `all`, so that
  /// internal actions are fuzzed too on a daemon that takes them).
  init(actions: JSONValue, random: SplitMix64) {
    var entries: [Entry] = []
    if case .array(let listed) = actions {
      for case .object(let fields) in listed {
        guard case .string(let path)? = fields["path"], let json = fields["json"], json != .null else { continue }
        var arguments: [(String, String, JSONValue)] = []
        if case .array(let values)? = fields["arguments"] {
          for case .object(let argument) in values {
            guard case .string(let name)? = argument["name"], case .string(let type)? = argument["type"] else {
              continue
            }
            arguments.append((name, type, argument["example"] ?? .null))
          }
        }
        var ids: [JSONValue] = []
        if case .array(let values)? = fields["ids"] {
          for case .object(let id) in values { ids.append(id["example"] ?? .null) }
        }
        entries.append(Entry(path: path, json: json, arguments: arguments, ids: ids))
      }
    }
    self.sends = entries.map { entry in
      let all = Self.sends(of: entry)
      let valid = all.filter(\.isValid)
      return (valid + all.filter { !$0.isValid }, valid.count)
    }
    self.random = random
  }

  /// The next send: a valid one about a third of the time.
  mutating func next() -> Send? {
    guard !sends.isEmpty else { return nil }
    let (all, valid) = sends[random.below(sends.count)]
    if random.below(3) == 0, valid > 0 { return all[random.below(valid)] }
    guard all.count > valid else { return nil }
    return all[valid + random.below(all.count - valid)]
  }

  /// Every send of `entry`.
  static func sends(of entry: Entry) -> [Send] {
    let path = concretePath(entry)
    let words = entry.arguments.map { word(for: $0.example) }
    let examples = entry.arguments.map(\.example)
    func filled(_ arguments: [JSONValue?]) -> JSONValue { fill(entry.json, arguments: arguments, ids: entry.ids) }
    var sends = [
      Send(input: .path(path, arguments: words), isValid: true, note: "\(entry.path) by path"),
      Send(input: .json(filled(examples)), isValid: true, note: "\(entry.path) as JSON"),
      Send(input: .path(path, arguments: words + ["extra"]), isValid: false, note: "\(entry.path), a word too many"),
      Send(input: .path(path + ".more", arguments: words), isValid: false, note: "\(entry.path), a step too many"),
      Send(
        input: .json(renaming(leafName(entry.path), in: filled(examples))), isValid: false,
        note: "\(entry.path), an unknown case"),
    ]
    for (index, argument) in entry.arguments.enumerated() {
      let what = "\(entry.path), \(argument.name) (\(argument.type))"
      let optional =
        argument.type.hasSuffix("?") || argument.type.hasSuffix("|null") || argument.type.hasSuffix("? (JSON)")
      var replaced = examples.map(Optional.some)
      replaced[index] = .null
      sends.append(Send(input: .json(filled(replaced)), isValid: optional, note: "\(what) null"))
      if let wrong = wrongWord(for: argument.type) {
        var spoilt = words
        spoilt[index] = wrong
        sends.append(Send(input: .path(path, arguments: spoilt), isValid: false, note: "\(what) written '\(wrong)'"))
      }
      if let wrong = wrongJSON(for: argument.type, example: argument.example) {
        replaced[index] = wrong
        sends.append(
          Send(input: .json(filled(replaced)), isValid: false, note: "\(what) as \(CanonicalJSON.text(wrong))"))
      }
      replaced[index] = Self.deeplyNested
      sends.append(Send(input: .json(filled(replaced)), isValid: false, note: "\(what) nested 600 deep"))
      if !optional {
        sends.append(
          Send(input: .path(path, arguments: Array(words.prefix(index))), isValid: false, note: "\(what) left out"))
      }
    }
    return sends
  }

  /// The path with each `[<id: T>]` replaced by the id's example.
  private static func concretePath(_ entry: Entry) -> String {
    var path = ""
    var ids = entry.ids.makeIterator()
    var rest = Substring(entry.path)
    while let open = rest.range(of: "[<id: ") {
      path += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].range(of: ">]") else { break }
      let id = ids.next() ?? .int(0)
      path += "[" + (id.stringValue ?? CanonicalJSON.text(id)) + "]"
      rest = rest[close.upperBound...]
    }
    return path + rest
  }

  /// A value's word after a path: a string as itself, anything else as JSON.
  private static func word(for value: JSONValue) -> String {
    value.stringValue ?? CanonicalJSON.text(value)
  }

  /// A word of the wrong type for an argument of `type` (docs/PROTOCOL.md's
  /// forms), or nil when every word is one (text).
  private static func wrongWord(for type: String) -> String? {
    let base = type.hasSuffix("?") ? String(type.dropLast()) : type
    switch base {
    case "Int": return "1.5"
    case "Double": return "many"
    case "Bool": return "yes"
    case "UUID": return "not-a-uuid"
    case "String": return nil
    default:
      if base.hasSuffix("(JSON)") { return "{" }
      if base.contains("|") { return "none-of-these" }
      return nil
    }
  }

  /// A JSON value of the wrong kind for an argument of `type`.
  private static func wrongJSON(for type: String, example: JSONValue) -> JSONValue? {
    if type.hasPrefix("String") { return .int(7) }
    if type.hasPrefix("Int") { return .double(1.5) }
    if example.stringValue != nil { return .int(7) }
    return .string("none-of-these")
  }

  /// Arrays nested deeper than the daemon reads, around a number.
  private static let deeplyNested = (0..<600).reduce(JSONValue.int(1)) { inner, _ in .array([inner]) }

  /// `template` with each placeholder replaced by its value; a `nil`
  /// argument is `null`.
  private static func fill(_ template: JSONValue, arguments: [JSONValue?], ids: [JSONValue]) -> JSONValue {
    switch template {
    case .object(let members):
      if members.count == 1, let (key, value) = members.first, case .int(let index) = value {
        if key == "$argument", arguments.indices.contains(index) { return arguments[index] ?? .null }
        if key == "$id", ids.indices.contains(index) { return ids[index] }
      }
      return .object(members.mapValues { fill($0, arguments: arguments, ids: ids) })
    case .array(let elements):
      return .array(elements.map { fill($0, arguments: arguments, ids: ids) })
    default:
      return template
    }
  }

  /// The last step of a listed path: the leaf case's name, or a binding's field.
  private static func leafName(_ path: String) -> String {
    String(path.split(separator: ".").last.map { $0.prefix { $0 != "[" } } ?? "")
  }

  /// `json` with the case (or field) `name`, a member's key or a string, named
  /// as no enum names it; the innermost occurrence, where the leaf is.
  private static func renaming(_ name: String, in json: JSONValue) -> JSONValue {
    switch json {
    case .string(name): return .string(name + "Unknown")
    case .object(let members):
      if let body = members[name], members.count == 1 { return .object([name + "Unknown": body]) }
      return .object(members.mapValues { renaming(name, in: $0) })
    case .array(let elements): return .array(elements.map { renaming(name, in: $0) })
    default: return json
    }
  }
}

extension JSONValue {
  fileprivate var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }
}
