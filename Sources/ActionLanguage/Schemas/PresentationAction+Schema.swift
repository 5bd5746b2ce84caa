import ComposableCore

extension PresentationAction: DescribedValue where Action: DescribedAction {}
extension PresentationAction: ActionPathDescribable where Action: DescribedAction {}

extension PresentationAction: DescribedAction where Action: DescribedAction {
  /// `presented` goes on with the child's actions; `dismiss` closes it:
  /// `dice.destination.presented.history.closeButtonTapped`, `dice.destination.dismiss`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase(
        "presented", "An action of the presented \(TypeName.of(Action.self))", .unlabeled("action", Action.self)),
      ActionCase("dismiss", "Dismisses the presented child: its state becomes nil and its effects are cancelled"),
    ])
  }

  /// `presented` or `dismiss`.
  public var actionCaseName: String {
    switch self {
    case .presented: "presented"
    case .dismiss: "dismiss"
    }
  }
}
