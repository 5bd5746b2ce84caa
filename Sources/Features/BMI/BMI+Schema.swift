import ActionLanguage
import ComposableCore

extension BMI.Action: DescribedAction {
  /// `bmi.input.…`, `bmi.history.…`, `bmi.tabSelected History`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("input", "An action of the calculator form", .unlabeled("action", BMIInput.Action.self)),
      ActionCase("history", "An action of the saved history", .unlabeled("action", BMIHistory.Action.self)),
      ActionCase("tabSelected", "Shows a tab; the history reloads", .unlabeled("tab", BMITab.self)),
      ActionCase("recovered", "Restarts the save or load that was in flight", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .input: "input"
    case .history: "history"
    case .tabSelected: "tabSelected"
    case .recovered: "recovered"
    }
  }
}

/// Written as its raw value: `Input` or `History` (any letter case).
extension BMITab: DescribedValue {}
