/// The cases of one action enum: what a command line can say to it.
///
/// Built by a ``DescribedAction``'s ``DescribedAction/actionSchema``; nested
/// actions are referenced lazily (``ActionSchemaReference``), so building a
/// schema costs one level and recursive action types are possible.
public struct ActionSchema: Sendable {
  /// The cases, in the enum's declaration order.
  public let cases: [ActionCase]

  /// A schema of `cases`, whose names must be unique (as an enum's are).
  public init(cases: [ActionCase]) {
    var seen = Set<String>()
    for actionCase in cases {
      precondition(seen.insert(actionCase.name).inserted, "ActionSchema: the case '\(actionCase.name)' is listed twice")
    }
    self.cases = cases
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
