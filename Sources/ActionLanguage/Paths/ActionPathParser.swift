import JSON

/// Turns one command line (a dotted path and argument words) into the JSON of
/// the action it names, walking the schema step by step.
///
/// Internal actions (``InternalSender``) parse like any other; the daemon
/// decides whether a client may send them. The suggestions and the choices
/// an error lists leave them out, being meant for a person at a client,
/// unless the path already went into an internal case (`dice.internal.…`).
struct ActionPathParser {
  let root: ActionSchema
  let steps: [PathStep]
  let arguments: [String]

  /// The action's JSON, exactly as the action's synthesized `Codable` writes it.
  func parse() throws(ActionPathError) -> JSONValue {
    try read().json
  }

  /// The action's JSON and, read in the same pass, its command line as
  /// ``ActionPath/describe(_:schema:)`` writes it: the path and the words as
  /// typed, in canonical form (`binding.height 180` for `binding height 180`,
  /// `hello` for `"hello"`, trailing `null`s left out).
  func read() throws(ActionPathError) -> ParsedAction {
    var group = root
    var frames: [PathFrame] = []
    var insideInternal = false
    var command = CommandWords()
    for (index, step) in steps.enumerated() {
      let typed = text(through: index)
      guard let actionCase = group.actionCase(named: step.name) else {
        throw .unknownAction(
          path: typed,
          suggestions: suggestions(
            for: step.name, in: group, prefix: text(through: index - 1), includingInternal: insideInternal),
          expected: insideInternal ? group.caseNames : group.clientCaseNames)
      }
      insideInternal = insideInternal || actionCase.isInternal
      let rest = steps[(index + 1)...].map(\.text).joined(separator: ".")
      guard let descent = actionCase.descent else {
        if let id = step.id { throw .unexpectedID(path: text(through: index - 1, then: step.name), id: id) }
        let usage = Self.usage(of: actionCase, prefix: text(through: index - 1))
        guard rest.isEmpty else { throw .notAGroup(path: typed, extra: rest, usage: usage) }
        command.steps.append(actionCase.name)
        let payload = try payload(of: actionCase, path: typed, command: &command)
        return command.parsed(PathFrame.wrap(actionCase.json(values: payload), in: frames))
      }
      frames.append(.descent(name: actionCase.name, key: descent.codingKey))
      switch descent.value.kind {
      case .identified(let idSchema, let element):
        guard let idText = step.id else {
          throw .missingID(path: typed, usage: Self.usage(of: actionCase, prefix: text(through: index - 1)))
        }
        let id = try value(of: idText, idSchema, path: typed, name: "id")
        frames.append(.element(id: id))
        command.append(step: actionCase.name, id: id, idSchema)
        group = element.schema
      case .stack(let element, let operations):
        guard let idText = step.id else {
          // `path.popFrom 3`: an operation on the stack itself.
          guard index + 1 < steps.count, steps[index + 1].id == nil,
            operations.schema.actionCase(named: steps[index + 1].name) != nil
          else {
            throw .stackStep(path: typed, usage: Self.usage(of: actionCase, prefix: text(through: index - 1)))
          }
          command.steps.append(actionCase.name)
          group = operations.schema
          continue
        }
        let id = try value(of: idText, .int, path: typed, name: "id")
        frames.append(.element(id: id))
        command.append(step: actionCase.name, id: id, .int)
        group = element.schema
      case .action(let reference):
        if let id = step.id { throw .unexpectedID(path: text(through: index - 1, then: step.name), id: id) }
        command.steps.append(actionCase.name)
        group = reference.schema
      case .binding(let binding):
        if let id = step.id { throw .unexpectedID(path: text(through: index - 1, then: step.name), id: id) }
        command.steps.append(actionCase.name)
        let json = try self.binding(binding, after: index, command: &command)
        return command.parsed(PathFrame.wrap(json, in: frames))
      default:
        break
      }
    }
    throw .incompletePath(
      path: text(through: steps.count - 1), expected: insideInternal ? group.caseNames : group.clientCaseNames)
  }

  /// The JSON of a `BindingAction` whose case is step `index`: the field is
  /// the next step (`binding.height 180`) or else the first word
  /// (`binding height 180`), and the one remaining word is the value.
  private func binding(
    _ binding: BindingSchema, after index: Int, command: inout CommandWords
  ) throws(ActionPathError) -> JSONValue {
    let typed = text(through: index)
    let fieldIsStep = index + 1 < steps.count
    guard let fieldStep = fieldIsStep ? steps[index + 1] : arguments.first.map({ PathStep(name: $0) }) else {
      throw .missingField(path: typed, expected: binding.fields.map(\.name))
    }
    let words = fieldIsStep ? arguments : Array(arguments.dropFirst())
    let fieldPath = "\(typed).\(fieldStep.text)"
    guard let field = binding.field(named: fieldStep.name), fieldStep.id == nil else {
      let near = Suggestions.nearest(to: fieldStep.name, among: binding.fields.map(\.name))
      throw .unknownField(
        path: fieldPath,
        suggestions: near.compactMap(binding.field(named:)).map { "\(typed).\($0.name) <value: \($0.value.usage)>" },
        expected: binding.fields.map(\.name))
    }
    let extra = index + 2 < steps.count ? steps[(index + 2)...].map(\.text).joined(separator: ".") : ""
    guard extra.isEmpty else {
      throw .notAGroup(path: fieldPath, extra: extra, usage: "\(typed).\(field.name) <value: \(field.value.usage)>")
    }
    guard words.count == 1 else {
      throw .argumentCount(
        path: fieldPath, parameters: ["value: \(field.value.usage)"], required: 1, given: words.count)
    }
    let value = try value(of: words[0], field.value, path: fieldPath, name: "value")
    command.steps.append(field.name)
    command.append(argument: value, field.value)
    return .object(["field": .string(field.name), "value": value])
  }

  /// A case's associated values, keyed as `Codable` keys them; a `nil`
  /// optional, given as `null` or left out at the end, is `null`, as the
  /// action's canonical encoding writes it (``CanonicalJSON/value(of:)``).
  private func payload(
    of actionCase: ActionCase, path: String, command: inout CommandWords
  ) throws(ActionPathError) -> JSONObject {
    let parameters = actionCase.arguments
    guard (actionCase.requiredArgumentCount...parameters.count).contains(arguments.count) else {
      throw .argumentCount(
        path: path, parameters: parameters.map(\.parameter),
        required: actionCase.requiredArgumentCount, given: arguments.count)
    }
    var members = JSONObject()
    for (index, parameter) in parameters.enumerated() {
      guard index < arguments.count else {
        members[parameter.codingKey] = .null
        continue
      }
      let value = try value(of: arguments[index], parameter.value, path: path, name: parameter.label)
      command.append(argument: value, parameter.value)
      members[parameter.codingKey] = value
    }
    command.dropTrailingNulls()
    return members
  }

  private func value(of word: String, _ schema: ValueSchema, path: String, name: String?) throws(ActionPathError)
    -> JSONValue
  {
    do {
      return try schema.value(fromWord: word)
    } catch {
      throw .invalidArgument(path: path, word: word, name: name, expected: error.expected, problem: error.problem)
    }
  }

  /// The nearest cases of `group` to `name`; failing those, the nearest paths
  /// below it, matched on any of their steps (`dice.rollButtonTapped` finds
  /// `dice.view.rollButtonTapped`). Internal ones only if `includingInternal`.
  private func suggestions(
    for name: String, in group: ActionSchema, prefix: String, includingInternal: Bool
  ) -> [String] {
    let candidates = group.cases.filter { includingInternal || !$0.isInternal }.map(\.name)
    let siblings = Suggestions.nearest(to: name, among: candidates)
    if !siblings.isEmpty {
      return siblings.compactMap { group.actionCase(named: $0).map { Self.usage(of: $0, prefix: prefix) } }
    }
    let listings = PathWalker.listings(of: group, prefix: prefix).filter { includingInternal || !$0.entry.isInternal }
    return Suggestions.ranked(name, listings.map { ($0.entry.usage, $0.stepNames) }).prefix(3).map(\.0)
  }

  /// How a case is written after `prefix`: its arguments, or the choices of
  /// the group it leads to (`cart.alert.<presented|dismiss>`).
  static func usage(of actionCase: ActionCase, prefix: String) -> String {
    let path = prefix.isEmpty ? actionCase.name : "\(prefix).\(actionCase.name)"
    func choices(_ names: [String]) -> String { names.count <= 4 ? "<\(names.joined(separator: "|"))>" : "<action>" }
    guard let descent = actionCase.descent else {
      return ([path] + actionCase.arguments.map(\.usage)).joined(separator: " ")
    }
    switch descent.value.kind {
    case .action(let reference): return "\(path).\(choices(reference.schema.clientCaseNames))"
    case .identified(let id, let element):
      return "\(path)[<id: \(id.typeName)>].\(choices(element.schema.clientCaseNames))"
    case .stack(let element, _):
      return "\(path)[<id: Int>].\(choices(element.schema.clientCaseNames)) or \(path).popFrom <id: Int>"
    case .binding(let binding): return "\(path).\(choices(binding.fields.map(\.name))) <value>"
    default: return path
    }
  }

  /// The path as typed through step `index` (empty before the first step),
  /// optionally followed by one more name.
  private func text(through index: Int, then name: String? = nil) -> String {
    let typed = index >= 0 ? steps[...index].map(\.text) : []
    return (typed + (name.map { [$0] } ?? [])).joined(separator: ".")
  }
}

/// The command line of an action being read, in canonical form: what
/// ``ActionRenderer`` would write for the action's JSON, built from the words
/// as they are read instead of from the JSON afterwards.
private struct CommandWords {
  var steps: [String] = []
  var arguments: [String] = []
  /// Whether a word was a JSON literal (a payload, a nested action): only the
  /// action's own encoding writes such a value canonically.
  var hasLiteral = false
  /// Whether a value has no word, so that the command line is the JSON's.
  var isUnrenderable = false
  /// How many of the last arguments are `null`s, which are left out.
  private var trailingNulls = 0

  mutating func append(step name: String, id: JSONValue, _ idSchema: ValueSchema) {
    guard let word = idSchema.word(for: id) else {
      isUnrenderable = true
      return
    }
    steps.append("\(name)[\(ActionRenderer.idText(id, word: word))]")
  }

  mutating func append(argument value: JSONValue, _ schema: ValueSchema) {
    if value == .null {
      arguments.append("null")
      trailingNulls += 1
      return
    }
    trailingNulls = 0
    if schema.takesLiteral { hasLiteral = true }
    guard let word = schema.word(for: value) else {
      isUnrenderable = true
      return
    }
    arguments.append(word)
  }

  mutating func dropTrailingNulls() {
    arguments.removeLast(trailingNulls)
    trailingNulls = 0
  }

  func parsed(_ json: JSONValue) -> ParsedAction {
    if hasLiteral { return ParsedAction(json: json, summary: nil) }
    let summary =
      isUnrenderable
      ? CanonicalJSON.text(json) : ActionCommand(path: steps.joined(separator: "."), arguments: arguments).description
    return ParsedAction(json: json, summary: summary)
  }
}

extension ValueSchema {
  /// Whether a value of this schema is written as a JSON literal.
  fileprivate var takesLiteral: Bool {
    switch kind {
    case .json, .action, .identified, .binding: true
    case .optional(let wrapped): wrapped.takesLiteral
    default: false
    }
  }
}
