import ActionLanguage
import ComposableCore

extension Dice.Action: DescribedAction {
  /// `dice.view.…`, `dice.internal.…`, `dice.destination.presented.…` or `dice.destination.dismiss`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("view", "Something the person did", .unlabeled("action", ViewAction.self)),
      ActionCase(
        "internal", "Something the dice's own effects report", sentBy: InternalSender("the dice's own effects"),
        .unlabeled("action", InternalAction.self)),
      ActionCase(
        "destination", "An action of what is presented (the full history), or its dismissal",
        .unlabeled("action", .presentation(PresentationAction<Dice.Destination.Action>.self))),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .view: "view"
    case .internal: "internal"
    case .destination: "destination"
    }
  }
}

extension Dice.Action.ViewAction: DescribedAction {
  /// `dice.view.rollButtonTapped`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("rollButtonTapped", "Rolls the die, unless a roll is under way"),
      ActionCase("undoLastRoll", "Removes the newest roll"),
      ActionCase("resetHistory", "Forgets every roll"),
      ActionCase("viewFullHistoryTapped", "Presents the full roll history"),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .rollButtonTapped: "rollButtonTapped"
    case .undoLastRoll: "undoLastRoll"
    case .resetHistory: "resetHistory"
    case .viewFullHistoryTapped: "viewFullHistoryTapped"
    }
  }
}

extension Dice.Action.InternalAction: DescribedAction {
  /// `dice.internal.rollCompleted 4`, `dice.internal.rollFailed …`, `dice.internal.startAnimation`,
  /// `dice.internal.recovered`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase(
        "rollCompleted", "The roll under way landed on this value", sentBy: .timerEffect,
        .unlabeled("value", Int.self)),
      ActionCase(
        "rollFailed", "The roll under way could not finish", sentBy: .timerEffect,
        .unlabeled("failure", EffectFailure.self)),
      ActionCase("startAnimation", "Turns the die a full turn", sentBy: InternalSender("the dice when a roll starts")),
      ActionCase("recovered", "Restarts the timer of a roll under way", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .rollCompleted: "rollCompleted"
    case .rollFailed: "rollFailed"
    case .startAnimation: "startAnimation"
    case .recovered: "recovered"
    }
  }
}

extension Dice.Destination.Action: DescribedAction {
  /// `history.closeButtonTapped`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("history", "The full roll history", .unlabeled("action", DiceHistory.Action.self))
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .history: "history"
    }
  }
}
