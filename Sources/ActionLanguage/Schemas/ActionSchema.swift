/// The cases of one action enum: what a command line can say to it.
///
/// Read from the enum's ``DescribedAction/describedCases`` by
/// ``init(deriving:)``; nested actions are referenced lazily
/// (``ActionSchemaReference``), so building a schema costs one level and
/// recursive action types are possible.
public struct ActionSchema: Sendable {
  /// The cases, in the order they are described.
  public let cases: [ActionCase]
  /// What is wrong with the description of this level, if anything: a sample
  /// that is not an enum case, a case described twice. ``allProblems`` walks
  /// the levels below too.
  public let problems: [ActionSchemaProblem]
  /// Action types this one is made from beyond its cases' values: a
  /// presentation's child, whose own description ``allProblems`` must check
  /// even when it gave no case to present.
  let nested: [ActionSchemaReference]

  init(cases: [ActionCase], problems: [ActionSchemaProblem] = [], nested: [ActionSchemaReference] = []) {
    self.cases = cases
    self.problems = problems
    self.nested = nested
  }

  /// The schema of `Action`, each case read from its sample (``CaseProbe``).
  /// A sample that cannot be read, or a second sample of a case, is left out
  /// and named in ``problems``.
  public init<Action: DescribedAction>(deriving type: Action.Type) {
    let typeName = TypeName.of(Action.self)
    var cases: [ActionCase] = []
    var problems: [ActionSchemaProblem] = []
    var seen = Set<String>()
    for described in Action.describedCases {
      do throws(ActionSchemaProblem) {
        let actionCase = try CaseProbe.actionCase(of: described, typeName: typeName)
        guard seen.insert(actionCase.name).inserted else {
          problems.append(ActionSchemaProblem(typeName: typeName, "the case '\(actionCase.name)' is described twice"))
          continue
        }
        cases.append(actionCase)
      } catch {
        problems.append(error)
      }
    }
    if cases.isEmpty && problems.isEmpty {
      problems.append(ActionSchemaProblem(typeName: typeName, "no case is described"))
    }
    self.init(cases: cases, problems: problems, nested: (Action.self as? any NestsActions.Type)?.nestedActions ?? [])
  }

  /// The case named `name`, if the enum has one.
  public func actionCase(named name: String) -> ActionCase? {
    cases.first { $0.name == name }
  }

  /// The names of the cases, in order: what may follow a group's path.
  public var caseNames: [String] { cases.map(\.name) }

  /// The names of the cases a client may send, in order, for suggestions and
  /// the choices an error lists; all of them when every case is internal.
  var clientCaseNames: [String] {
    let names = cases.filter { !$0.isInternal }.map(\.name)
    return names.isEmpty ? caseNames : names
  }
}

/// A description of an action type that its schema cannot be read from,
/// named with the type: what a host checks before it serves the app.
public struct ActionSchemaProblem: Error, Hashable, Sendable, CustomStringConvertible {
  /// The action type described, e.g. `Cart.Action`.
  public let typeName: String
  /// What is wrong, and what was expected.
  public let message: String

  init(typeName: String, _ message: String) {
    self.typeName = typeName
    self.message = message
  }

  public var description: String { "\(typeName).describedCases: \(message)" }
}

extension ActionSchema {
  /// The problems of this schema and of every action type it leads to, each
  /// type once: what a host refuses to serve and the conformance check fails.
  public var allProblems: [ActionSchemaProblem] {
    var problems: [ActionSchemaProblem] = []
    var visited = Set<ObjectIdentifier>()
    func walk(_ schema: ActionSchema) {
      problems += schema.problems
      let references = schema.cases.flatMap(\.arguments).flatMap(\.value.references) + schema.nested
      for reference in references where visited.insert(reference.typeID).inserted {
        walk(reference.schema)
      }
    }
    walk(self)
    return problems
  }
}

extension ValueSchema {
  /// The action types a value of this schema holds.
  var references: [ActionSchemaReference] {
    switch kind {
    case .action(let reference): [reference]
    case .identified(_, let element): [element]
    case .stack(let element, let operations): [element, operations]
    case .optional(let wrapped): wrapped.references
    default: []
    }
  }
}

/// An action type made from others in a way its cases may not show (a
/// presentation's child, when it describes no case to present).
protocol NestsActions {
  static var nestedActions: [ActionSchemaReference] { get }
}
