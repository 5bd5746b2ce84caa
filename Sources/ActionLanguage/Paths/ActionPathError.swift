/// Why a command-line action path or its arguments do not name an action.
///
/// Every message names what was given and what was expected, and an unknown
/// step suggests the nearest valid paths:
/// `unknown action 'cart.addItm': did you mean cart.addItem <Int>?`
public enum ActionPathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The path is not dotted steps with optional `[id]`s, e.g. an empty step
  /// or an unclosed bracket.
  case malformedPath(path: String, problem: String)
  /// The path ends at a group of actions; `expected` are the group's cases.
  /// An empty path is the root group.
  case incompletePath(path: String, expected: [String])
  /// The last step of `path` names no case of its group; `suggestions` are
  /// the nearest valid usages, `expected` the group's cases.
  case unknownAction(path: String, suggestions: [String], expected: [String])
  /// The path ends at a binding without naming the field to set.
  case missingField(path: String, expected: [String])
  /// The last step of `path` names no bindable field.
  case unknownField(path: String, suggestions: [String], expected: [String])
  /// The path names a collection without an element id; `usage` shows where it goes.
  case missingID(path: String, usage: String)
  /// The path stops at a navigation stack, or goes on with neither a
  /// screen's id nor an operation of the stack.
  case stackStep(path: String, usage: String)
  /// The path gives an id to a step that is not a collection.
  case unexpectedID(path: String, id: String)
  /// The path goes on (`extra`) past an action, whose arguments are words, not steps.
  case notAGroup(path: String, extra: String, usage: String)
  /// The action got `given` arguments; it takes `parameters` (`name: Type`),
  /// of which the first `required` cannot be left out.
  case argumentCount(path: String, parameters: [String], required: Int, given: Int)
  /// `word`, given for the argument labelled `name` (`nil` when unlabelled),
  /// is not `expected` (e.g. "an Int").
  case invalidArgument(path: String, word: String, name: String?, expected: String, problem: String?)
  /// The JSON the path produced does not decode as the action type (the schema
  /// and the enum disagree).
  case undecodable(path: String, typeName: String, problem: String)

  /// The message for a person: what was given, what was expected, and the nearest valid paths.
  public var description: String {
    switch self {
    case .malformedPath(let path, let problem):
      return "malformed action path '\(path)': \(problem)"
    case .incompletePath(let path, let expected):
      if path.isEmpty { return "no action given; expected one of: \(expected.joined(separator: ", "))" }
      return "\(path) is a group of actions; expected one of: \(expected.joined(separator: ", "))"
    case .unknownAction(let path, let suggestions, let expected):
      return Self.unknown("action", path, suggestions, expected)
    case .missingField(let path, let expected):
      return "\(path) sets a form field; expected one of: \(expected.joined(separator: ", "))"
    case .unknownField(let path, let suggestions, let expected):
      return Self.unknown("field", path, suggestions, expected)
    case .missingID(let path, let usage):
      return "\(path) is a collection; name an element by id, as in \(usage)"
    case .stackStep(let path, let usage):
      return "\(path) is a navigation stack; name a screen by id or go back: \(usage)"
    case .unexpectedID(let path, let id):
      return "\(path) is not a collection; remove [\(id)]"
    case .notAGroup(let path, let extra, let usage):
      return "\(path) is an action, not a group: nothing can follow it ('\(extra)'); write \(usage)"
    case .argumentCount(let path, let parameters, let required, let given):
      return "\(path) takes \(Self.count(parameters, required: required)), got \(given)"
    case .invalidArgument(let path, let word, let name, let expected, let problem):
      return "\(path): '\(word)' is not \(expected)" + (name.map { " (\($0))" } ?? "")
        + (problem.map { ": \($0)" } ?? "")
    case .undecodable(let path, let typeName, let problem):
      return "\(path) does not decode as \(typeName): \(problem)"
    }
  }

  private static func unknown(_ noun: String, _ path: String, _ suggestions: [String], _ expected: [String]) -> String {
    if suggestions.isEmpty {
      return "unknown \(noun) '\(path)'; expected one of: \(expected.joined(separator: ", "))"
    }
    return "unknown \(noun) '\(path)': did you mean \(Suggestions.alternatives(suggestions))?"
  }

  /// "1 argument (productID: Int)", "no arguments", "0 to 1 arguments (orderID: Int?)".
  private static func count(_ parameters: [String], required: Int) -> String {
    if parameters.isEmpty { return "no arguments" }
    let list = " (" + parameters.joined(separator: ", ") + ")"
    if required == parameters.count {
      return "\(required) argument\(required == 1 ? "" : "s")" + list
    }
    return "\(required) to \(parameters.count) arguments" + list
  }
}
