/// One case of an action enum: its name, what it means, its associated values
/// in declaration order, and whether only effects send it.
///
/// Read from a value of the case (``CaseProbe``): the name and the values
/// are the type's own `Codable` encoding's, the summary and the sender what
/// its ``DescribedCase`` adds.
public struct ActionCase: Sendable {
  /// The case's name, which is also its JSON coding key and its path step.
  public let name: String
  /// One line for `tcactl actions`: what the action does.
  public let summary: String
  /// The associated values, in the order the type decodes them.
  public let arguments: [ActionArgument]
  /// Who alone sends this case (and every case below it), or `nil` when a
  /// client may: see ``InternalSender``.
  public let sentBy: InternalSender?

  init(name: String, summary: String, sentBy: InternalSender?, arguments: [ActionArgument]) {
    self.name = name
    self.summary = summary
    self.sentBy = sentBy
    self.arguments = arguments
  }

  /// Whether only an effect or the daemon sends this case.
  public var isInternal: Bool { sentBy != nil }

  /// The single associated value a path descends into (a nested action, a
  /// collection element or a binding), if this case is one step of a longer path.
  var descent: ActionArgument? {
    guard arguments.count == 1, let argument = arguments.first else { return nil }
    switch argument.value.kind {
    case .action, .identified, .stack, .binding: return argument
    default: return nil
    }
  }

  /// How many leading arguments must be given: trailing optionals may be left out.
  var requiredArgumentCount: Int {
    (arguments.lastIndex { !$0.value.isOptional }).map { $0 + 1 } ?? 0
  }
}
