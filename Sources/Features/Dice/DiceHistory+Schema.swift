import ActionLanguage
import ComposableCore

extension DiceHistory.Action: DescribedAction {
  /// `dice.destination.presented.history.closeButtonTapped`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("closeButtonTapped", "Asks the dice screen to dismiss the history")
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .closeButtonTapped: "closeButtonTapped"
    }
  }
}
