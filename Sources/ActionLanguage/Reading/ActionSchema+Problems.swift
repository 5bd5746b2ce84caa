import JSON

extension ActionSchema {
  /// What in `action`'s JSON this schema does not describe: a case it does
  /// not list, a member no value of a case names, a binding's field or value
  /// its state does not take; described with where it is and what was
  /// expected, or `nil` when the schema describes all of it.
  ///
  /// Decoding alone ignores an unknown member (synthesized `Codable` reads
  /// the keys it knows), so an action a client wrote with a misspelt label
  /// would be taken without it; it takes a binding's value as any JSON; and
  /// it takes a case the enum has but its description left out, which no
  /// client could then have been told of. JSON payloads inside a case are
  /// the payload type's to judge; JSON that is not a case at all, the
  /// decoder's.
  public func problem(in action: JSONValue) -> String? {
    problem(in: action, casesOnly: false)
  }

  /// The first case along `action`'s JSON that this schema does not list,
  /// described with what it does list; `nil` when it lists them all. An
  /// action an effect or a test made may still carry a value no client
  /// could send (``problem(in:)``); its cases must all be described.
  public func undescribedCase(in action: JSONValue) -> String? {
    problem(in: action, casesOnly: true)
  }

  private func problem(in action: JSONValue, casesOnly: Bool) -> String? {
    var schema = self
    var json = action
    var path: [String] = []
    while let (name, body) = EnumCaseJSON.split(json) {
      guard let actionCase = schema.actionCase(named: name) else {
        let at = path.isEmpty ? "" : " in \(path.joined(separator: "."))"
        return "no case '\(name)'\(at); expected one of: \(schema.caseNames.joined(separator: ", "))"
      }
      path.append(name)
      guard let body else { return nil }
      let keys = actionCase.arguments.map(\.codingKey)
      guard let values = EnumCaseJSON.values(body, isValueName: actionCase.isValueName) else { return nil }
      // `{"_0":…,"x":1}` reads as one value, the whole object; the `_0` in it
      // says it was meant as the case's values, one of them misspelt.
      let written: [String] =
        if case .object(let members) = body, members["_0"] != nil { Array(members.keys) } else { Array(values.keys) }
      if !casesOnly, let extra = written.first(where: { !keys.contains($0) }) {
        let expected = keys.isEmpty ? "no values" : "only \(keys.map { "'\($0)'" }.joined(separator: ", "))"
        return "unexpected member '\(extra)' in \(path.joined(separator: ".")), which takes \(expected)"
      }
      guard let descent = actionCase.descent, let inner = values[descent.codingKey] else { return nil }
      switch descent.value.kind {
      case .action(let reference):
        (schema, json) = (reference.schema, inner)
      case .identified(_, let element):
        if !casesOnly, let extra = Self.unexpectedElementMember(in: inner, path: path) { return extra }
        guard let (_, elementAction) = ActionRenderer.element(inner) else { return nil }
        (schema, json) = (element.schema, elementAction)
      case .stack(let element, let operations):
        if !casesOnly, let extra = Self.unexpectedElementMember(in: inner, path: path) { return extra }
        if let (_, elementAction) = ActionRenderer.element(inner) {
          (schema, json) = (element.schema, elementAction)
        } else if let (name, _) = EnumCaseJSON.split(inner), operations.schema.actionCase(named: name) != nil {
          (schema, json) = (operations.schema, inner)
        } else {
          // A raw `push`, which no path names, is the decoder's to judge.
          return nil
        }
      case .binding(let binding):
        return casesOnly ? nil : Self.bindingProblem(in: inner, binding, path: path.joined(separator: "."))
      default:
        return nil
      }
    }
    return nil
  }

  /// What is wrong with a binding's `{"field":…,"value":…}`: a member too
  /// many, a field the state lacks, a value its field does not take. The
  /// decoder takes any value, as JSON; the field's type is known here.
  private static func bindingProblem(in json: JSONValue, _ binding: BindingSchema, path: String) -> String? {
    guard case .object(let members) = json, case .string(let name)? = members["field"], let value = members["value"]
    else { return nil }
    if let extra = members.keys.first(where: { $0 != "field" && $0 != "value" }) {
      return "unexpected member '\(extra)' in the binding of \(path), which takes only 'field' and 'value'"
    }
    guard let field = binding.field(named: name) else {
      let names = binding.fields.map(\.name).joined(separator: ", ")
      return "\(path) has no field '\(name)'; expected one of: \(names)"
    }
    return field.value.problem(with: value).map { "\(path).\(name): \($0)" }
  }

  /// A member of an element action's `{"element":{"id":…,"action":…}}` that
  /// is neither.
  private static func unexpectedElementMember(in json: JSONValue, path: [String]) -> String? {
    guard case .object(let outer) = json, case .object(let element)? = outer["element"] else { return nil }
    let extra = outer.keys.first { $0 != "element" } ?? element.keys.first { $0 != "id" && $0 != "action" }
    return extra.map {
      "unexpected member '\($0)' in the element action of \(path.joined(separator: ".")), "
        + "which takes only 'element' with 'id' and 'action'"
    }
  }
}
