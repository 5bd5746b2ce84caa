import ActionLanguage
import ComposableCore

extension Counter.Action: DescribedAction {
  /// `counter.incrementButtonTapped`, `counter.numberFactButtonTapped`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("incrementButtonTapped", "Adds one to the count"),
      ActionCase("decrementButtonTapped", "Subtracts one from the count"),
      ActionCase("numberFactButtonTapped", "Fetches a fact about the current count"),
      ActionCase("numberFactResponse", "A fact arrived", sentBy: .httpEffect, .unlabeled("fact", String.self)),
      ActionCase(
        "numberFactFailed", "The fact could not be fetched", sentBy: .httpEffect,
        .unlabeled("failure", EffectFailure.self)),
      ActionCase("recovered", "Fetches again a fact that was loading", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .incrementButtonTapped: "incrementButtonTapped"
    case .decrementButtonTapped: "decrementButtonTapped"
    case .numberFactButtonTapped: "numberFactButtonTapped"
    case .numberFactResponse: "numberFactResponse"
    case .numberFactFailed: "numberFactFailed"
    case .recovered: "recovered"
    }
  }
}
