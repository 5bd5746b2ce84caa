import ComposableCore

extension PresentationAction: DescribedValue where Action: DescribedAction {}
extension PresentationAction: ActionPathDescribable where Action: DescribedAction {}

extension PresentationAction: NestsActions where Action: DescribedAction {
  static var nestedActions: [ActionSchemaReference] { [ActionSchemaReference(Action.self)] }
}

extension PresentationAction: DescribedAction where Action: DescribedAction {
  /// `presented` goes on with the child's actions; `dismiss` closes it:
  /// `dice.destination.presented.history.closeButtonTapped`, `dice.destination.dismiss`.
  public static var describedCases: [DescribedCase<Self>] {
    let presented = Action.describedCases.first.map {
      DescribedCase(Self.presented($0.sample), "An action of the presented \(TypeName.of(Action.self))")
    }
    let dismiss = DescribedCase(
      Self.dismiss, "Dismisses the presented child: its state becomes nil and its effects are cancelled")
    return (presented.map { [$0] } ?? []) + [dismiss]
  }
}
