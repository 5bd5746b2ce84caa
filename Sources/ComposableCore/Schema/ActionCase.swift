/// One case of an action enum: its name, what it means, and its associated
/// values in declaration order.
public struct ActionCase: Sendable {
  /// The case's name, which is also its JSON coding key and its path step.
  public let name: String
  /// One line for `tcactl actions`: what the action does.
  public let summary: String
  /// The associated values, in declaration order, with their coding keys resolved.
  public let arguments: [ActionArgument]

  /// A case named `name` with `arguments` as its associated values.
  public init(_ name: String, _ summary: String, _ arguments: ActionArgument...) {
    self.init(name, summary, arguments: arguments)
  }

  /// A case named `name` with `arguments` as its associated values.
  public init(_ name: String, _ summary: String, arguments: [ActionArgument]) {
    self.name = name
    self.summary = summary
    self.arguments = arguments.enumerated().map { $0.element.positioned(at: $0.offset) }
  }

  /// The single associated value a path descends into (a nested action, a
  /// collection element or a binding), if this case is one step of a longer path.
  var descent: ActionArgument? {
    guard arguments.count == 1, let argument = arguments.first else { return nil }
    switch argument.value.kind {
    case .action, .identified, .binding: return argument
    default: return nil
    }
  }

  /// How many leading arguments must be given: trailing optionals may be left out.
  var requiredArgumentCount: Int {
    (arguments.lastIndex { !$0.value.isOptional }).map { $0 + 1 } ?? 0
  }
}
