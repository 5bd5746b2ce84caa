import JSON

/// One way a client might write an action: as a path and words, or as JSON.
public enum ActionInput: Hashable, Sendable, CustomStringConvertible {
  case path(String, [String])
  case json(JSONValue)

  /// The path and words as a shell would take them, or the JSON's text.
  public var description: String {
    switch self {
    case .path(let path, let words): ActionCommand(path: path, arguments: words).description
    case .json(let json): CanonicalJSON.text(json)
    }
  }
}

/// Ways of writing one listed action that a reader must take alike, or must
/// refuse: what the conformance check and the fuzzer send.
public struct ActionVariants: Sendable {
  /// Pairs of inputs that must read as the same action: the path form
  /// beside the JSON, the short JSON form beside the long one, an optional
  /// value left out beside it written `null`.
  public var equivalent: [(ActionInput, ActionInput, note: String)] = []
  /// Inputs that must be refused, each with what is wrong with it: a value
  /// left out, `null`, of the wrong type or an array nested 600 deep, a word or a
  /// member too many, a case or field the schema lacks.
  public var malformed: [(ActionInput, note: String)] = []
}

extension ActionSchema {
  /// The variants of `sample`, one of this schema's ``samples``.
  public func variants(of sample: ActionSample) -> ActionVariants {
    var variants = ActionVariants()
    guard let command = ActionPath.command(for: sample.action, schema: self) else { return variants }
    let path = command.path
    let ids = sample.entry.ids.map(\.example)
    func wrap(_ leaf: JSONValue) -> JSONValue {
      ActionTemplate.filled(PathFrame.wrap(leaf, in: sample.frames), arguments: [], ids: ids)
    }
    variants.equivalent.append((.path(path, command.arguments), .json(sample.action), "the path form and the JSON"))
    variants.malformed.append((.path(path + ".more", command.arguments), "a step past the end of the path"))
    switch sample.leaf {
    case .actionCase(let actionCase):
      Self.addVariants(of: actionCase, sample: sample, path: path, words: command.arguments, wrap: wrap, to: &variants)
    case .field(let field):
      Self.addVariants(of: field, sample: sample, path: path, words: command.arguments, wrap: wrap, to: &variants)
    case .recursion:
      break
    }
    return variants
  }

  private static func addVariants(
    of actionCase: ActionCase, sample: ActionSample, path: String, words: [String],
    wrap: (JSONValue) -> JSONValue, to variants: inout ActionVariants
  ) {
    let arguments = actionCase.arguments
    let examples = sample.entry.arguments.map(\.example)
    // Every value's word, `null` for those the canonical command leaves out.
    let allWords = arguments.indices.map { $0 < words.count ? words[$0] : "null" }
    func long(_ values: [String: JSONValue]) -> JSONValue {
      wrap(.object([actionCase.name: .object(JSONObject(values))]))
    }
    func values(replacing index: Int, with value: JSONValue?) -> [String: JSONValue] {
      var values: [String: JSONValue] = [:]
      for (position, argument) in arguments.enumerated() {
        values[argument.codingKey] = position == index ? value : examples[position]
      }
      return values
    }
    variants.equivalent.append(
      (.json(sample.action), .json(long(values(replacing: -1, with: nil))), "the long JSON form"))
    variants.malformed.append((.path(path, allWords + ["extra"]), "\(path) with a word too many"))
    var extra = values(replacing: -1, with: nil)
    extra["unexpected"] = .int(1)
    variants.malformed.append((.json(long(extra)), "\(path) with a member no value of it names"))
    variants.malformed.append(
      (.json(wrap(.object([actionCase.name + "Unknown": .object([:])]))), "\(path) with a case name the enum lacks"))
    for (index, argument) in arguments.enumerated() {
      let what = "\(path)'s value \(argument.codingKey) (\(argument.value.typeName))"
      if argument.value.isOptional {
        var nullWord = allWords
        nullWord[index] = "null"
        variants.equivalent.append(
          (.path(path, nullWord), .json(long(values(replacing: index, with: .null))), "\(what) written null"))
        variants.equivalent.append(
          (
            .json(long(values(replacing: index, with: nil))), .json(long(values(replacing: index, with: .null))),
            "\(what) left out of the JSON"
          ))
        if index >= actionCase.requiredArgumentCount {
          var nulls = values(replacing: -1, with: nil)
          for later in arguments[index...] { nulls[later.codingKey] = .null }
          variants.equivalent.append(
            (.path(path, Array(allWords.prefix(index))), .json(long(nulls)), "\(what) and those after it left out"))
        }
      } else {
        if argument.value.refusesNullWord {
          var nullWord = allWords
          nullWord[index] = "null"
          variants.malformed.append((.path(path, nullWord), "\(what) written null"))
        }
        variants.malformed.append((.json(long(values(replacing: index, with: .null))), "\(what) null in the JSON"))
        variants.malformed.append((.json(long(values(replacing: index, with: nil))), "\(what) left out of the JSON"))
        if index < actionCase.requiredArgumentCount {
          variants.malformed.append((.path(path, Array(allWords.prefix(index))), "\(what) left out"))
        }
      }
      if let word = argument.value.wrongWord {
        var wrong = allWords
        wrong[index] = word
        variants.malformed.append((.path(path, wrong), "\(what) written '\(word)'"))
      }
      if let json = argument.value.wrongJSON {
        variants.malformed.append(
          (.json(long(values(replacing: index, with: json))), "\(what) as \(CanonicalJSON.text(json)) in the JSON"))
      }
      variants.malformed.append(
        (.json(long(values(replacing: index, with: deeplyNested))), "\(what) as arrays nested 600 deep"))
    }
  }

  private static func addVariants(
    of field: BindingSchema.Field, sample: ActionSample, path: String, words: [String],
    wrap: (JSONValue) -> JSONValue, to variants: inout ActionVariants
  ) {
    let example = sample.entry.arguments.first?.example ?? .null
    func binding(_ name: String, _ value: JSONValue, extra: Bool = false) -> JSONValue {
      var members: JSONObject = ["field": .string(name), "value": value]
      if extra { members["unexpected"] = .int(1) }
      return wrap(.object(members))
    }
    let what = "\(path) (\(field.value.typeName))"
    let group = String(path.dropLast(field.name.count + 1))
    variants.equivalent.append(
      (.path(group, [field.name] + words), .json(sample.action), "\(what) with the field as the first word"))
    variants.malformed.append((.path(path, []), "\(what) without its value"))
    variants.malformed.append((.path(path, words + ["extra"]), "\(what) with a word too many"))
    variants.malformed.append(
      (.json(binding(field.name + "Unknown", example)), "\(what) naming a field the state lacks"))
    variants.malformed.append((.json(binding(field.name, example, extra: true)), "\(what) with a member too many"))
    variants.malformed.append((.json(binding(field.name, deeplyNested)), "\(what) as arrays nested 600 deep"))
    if !field.value.isOptional {
      if field.value.refusesNullWord { variants.malformed.append((.path(path, ["null"]), "\(what) written null")) }
      variants.malformed.append((.json(binding(field.name, .null)), "\(what) null in the JSON"))
    }
    if let word = field.value.wrongWord {
      variants.malformed.append((.path(path, [word]), "\(what) written '\(word)'"))
    }
    if let json = field.value.wrongJSON {
      variants.malformed.append((.json(binding(field.name, json)), "\(what) as \(CanonicalJSON.text(json))"))
    }
  }

  /// Arrays nested deeper than any reader accepts, around a number.
  private static let deeplyNested: JSONValue = (0..<600).reduce(JSONValue.int(1)) { inner, _ in .array([inner]) }
}

extension ValueSchema {
  /// Whether the word `null` is no value of this schema (it is text for a
  /// string).
  var refusesNullWord: Bool { (try? value(fromWord: "null")) == nil }

  /// A word this schema does not read, or `nil` when every word is a value
  /// (text).
  var wrongWord: String? {
    switch kind {
    case .int: "1.5"
    case .double: "many"
    case .bool: "yes"
    case .uuid: "not-a-uuid"
    case .enumeration: "none-of-these"
    case .json: "{"
    case .optional(let wrapped): wrapped.wrongWord
    case .string, .action, .identified, .stack, .binding: nil
    }
  }

  /// A JSON value of the wrong kind for this schema.
  var wrongJSON: JSONValue? {
    switch kind {
    case .int: .double(1.5)
    case .double, .bool, .uuid, .enumeration: .string("none-of-these")
    case .string: .int(7)
    case .json(let opaque):
      if case .string = opaque.sample { .int(7) } else { .string("none-of-these") }
    case .optional(let wrapped): wrapped.wrongJSON
    case .action, .identified, .stack, .binding: nil
    }
  }
}
