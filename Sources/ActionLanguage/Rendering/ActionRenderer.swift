import JSON

/// Renders an action's JSON as the command line that produces it: the
/// reverse of ``ActionPathParser``.
enum ActionRenderer {
  /// The command for `action`, or `nil` when the JSON is not an action of `schema`.
  static func command(for action: JSONValue, schema: ActionSchema) -> ActionCommand? {
    var steps: [String] = []
    guard let arguments = render(action, schema, &steps) else { return nil }
    return ActionCommand(path: steps.joined(separator: "."), arguments: arguments)
  }

  /// The path of `action`'s case with the collections' ids left out
  /// (`products.rows[].addToCart.plusButtonTapped`), and a binding's field
  /// kept (`bmi.input.binding.height`); `nil` when the JSON is not an
  /// action of `schema`.
  static func casePath(of action: JSONValue, schema: ActionSchema) -> String? {
    var path = ""
    var json = action
    var schema = schema
    while true {
      guard let (actionCase, members) = schema.match(json) else { return nil }
      if !path.isEmpty { path += "." }
      path += actionCase.name
      guard let descent = actionCase.descent else { return path }
      guard members.count == 1, let inner = members[descent.codingKey] else { return nil }
      switch descent.value.kind {
      case .action(let reference):
        (json, schema) = (inner, reference.schema)
      case .identified(_, let element):
        guard let (_, action) = self.element(inner) else { return nil }
        path += "[]"
        (json, schema) = (action, element.schema)
      case .stack(let element, let operations):
        if let (_, action) = self.element(inner) {
          path += "[]"
          (json, schema) = (action, element.schema)
        } else {
          (json, schema) = (inner, operations.schema)
        }
      case .binding(let binding):
        guard case .object(let members) = inner, case .string(let field)? = members["field"],
          binding.field(named: field) != nil
        else { return nil }
        return path + "." + field
      default:
        return nil
      }
    }
  }

  /// Appends the steps of `json` to `steps` and returns its argument words.
  private static func render(_ json: JSONValue, _ schema: ActionSchema, _ steps: inout [String]) -> [String]? {
    guard let (actionCase, members) = schema.match(json) else { return nil }
    let name = actionCase.name
    guard let descent = actionCase.descent else {
      steps.append(name)
      return arguments(members, actionCase)
    }
    guard members.count == 1, let inner = members[descent.codingKey] else { return nil }
    switch descent.value.kind {
    case .action(let reference):
      steps.append(name)
      return render(inner, reference.schema, &steps)
    case .identified(let idSchema, let element):
      guard let (id, action) = self.element(inner), let idWord = idSchema.word(for: id) else { return nil }
      steps.append("\(name)[\(idText(id, word: idWord))]")
      return render(action, element.schema, &steps)
    case .stack(let element, let operations):
      guard let (id, action) = self.element(inner) else {
        steps.append(name)
        return render(inner, operations.schema, &steps)
      }
      guard let idWord = ValueSchema.int.word(for: id) else { return nil }
      steps.append("\(name)[\(idWord)]")
      return render(action, element.schema, &steps)
    case .binding(let binding):
      guard let (field, word) = bindingWord(inner, binding) else { return nil }
      steps.append(name)
      steps.append(field)
      return [word]
    default:
      return nil
    }
  }

  /// The words of a case's associated values; an optional that is missing
  /// or `null` is `null`, and trailing ones are left out.
  private static func arguments(_ members: JSONObject, _ actionCase: ActionCase) -> [String]? {
    guard members.keys.allSatisfy({ key in actionCase.arguments.contains { $0.codingKey == key } }) else { return nil }
    var words: [String] = []
    var trailingMissing = 0
    for argument in actionCase.arguments {
      if let value = members[argument.codingKey], value != .null || !argument.value.isOptional {
        guard let word = argument.value.word(for: value) else { return nil }
        words.append(word)
        trailingMissing = 0
      } else {
        guard argument.value.isOptional else { return nil }
        words.append("null")
        trailingMissing += 1
      }
    }
    return Array(words.dropLast(trailingMissing))
  }

  /// The id and action of an `IdentifiedAction`'s JSON.
  static func element(_ json: JSONValue) -> (id: JSONValue, action: JSONValue)? {
    guard case .object(let outer) = json, outer.count == 1, case .object(let element)? = outer["element"],
      element.count == 2, let id = element["id"], let action = element["action"]
    else { return nil }
    return (id, action)
  }

  /// The field name and value word of a `BindingAction`'s JSON.
  static func bindingWord(_ json: JSONValue, _ binding: BindingSchema) -> (field: String, word: String)? {
    guard case .object(let members) = json, members.count == 2, case .string(let name)? = members["field"],
      let value = members["value"], let field = binding.field(named: name), let word = field.value.word(for: value)
    else { return nil }
    return (name, word)
  }

  /// An id as it goes between brackets: a number as itself, text as itself
  /// when it holds only letters, digits, `_` and `-`, otherwise JSON-quoted.
  static func idText(_ id: JSONValue, word: String) -> String {
    guard case .string(let text) = id else { return word }
    let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    return plain ? text : CanonicalJSON.text(.string(text))
  }
}
