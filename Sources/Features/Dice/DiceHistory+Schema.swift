import ActionLanguage
import ComposableCore

extension DiceHistory.Action: DescribedAction {
  /// `dice.destination.presented.history.closeButtonTapped`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.closeButtonTapped, "Asks the dice screen to dismiss the history")
  ]
}
