import ActionLanguage
import ComposableCore

extension Dice.Action: DescribedAction {
  /// `dice.view.…`, `dice.internal.…`, `dice.destination.presented.…` or `dice.destination.dismiss`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.view(.rollButtonTapped), "Something the person did"),
    .init(
      .internal(.startAnimation), "Something the dice's own effects report", sentBy: .init("the dice's own effects")),
    .init(.destination(.dismiss), "An action of what is presented (the full history), or its dismissal"),
  ]
}

extension Dice.Action.ViewAction: DescribedAction {
  /// `dice.view.rollButtonTapped`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.rollButtonTapped, "Rolls the die, unless a roll is under way"),
    .init(.undoLastRoll, "Removes the newest roll"),
    .init(.resetHistory, "Forgets every roll"),
    .init(.viewFullHistoryTapped, "Presents the full roll history"),
  ]
}

extension Dice.Action.InternalAction: DescribedAction {
  /// `dice.internal.rollCompleted 4`, `dice.internal.rollFailed …`, `dice.internal.startAnimation`,
  /// `dice.internal.recovered`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.rollCompleted(4), "The roll under way landed on this value", sentBy: .timerEffect),
    .init(.rollFailed(.example), "The roll under way could not finish", sentBy: .timerEffect),
    .init(.startAnimation, "Turns the die a full turn", sentBy: .init("the dice when a roll starts")),
    .init(.recovered, "Restarts the timer of a roll under way", sentBy: .recovery),
  ]
}

extension Dice.Destination.Action: DescribedAction {
  /// `history.closeButtonTapped`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.history(.closeButtonTapped), "The full roll history")
  ]
}
