import ActionLanguage
import ComposableCore
import FoundationEssentials

extension BMIHistory.Action: DescribedAction {
  /// `bmi.history.onAppear`, `bmi.history.delete <id>`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("onAppear", "Reloads the history from storage"),
      ActionCase(
        "loaded", "Storage listed the history", sentBy: .storageEffect,
        .labeled("records", .json([BMIRecord].self, sample: [BMIRecord.schemaSample])),
        .labeled("unreadable", .json([String].self, sample: ["2024-01-01: not a BMI record"]))),
      ActionCase(
        "loadFailed", "Storage could not list the history", sentBy: .storageEffect,
        .unlabeled("failure", EffectFailure.self)),
      ActionCase("delete", "Deletes the entry with this id", .labeled("id", UUID.self)),
      ActionCase(
        "deleteFailed", "Storage could not delete the record, which goes back", sentBy: .storageEffect,
        .unlabeled("record", BMIRecord.self), .unlabeled("failure", EffectFailure.self)),
      ActionCase("dismissMessages", "Dismisses the error and unreadable-entries messages"),
      ActionCase("recovered", "Lists again a history that was loading", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .onAppear: "onAppear"
    case .loaded: "loaded"
    case .loadFailed: "loadFailed"
    case .delete: "delete"
    case .deleteFailed: "deleteFailed"
    case .dismissMessages: "dismissMessages"
    case .recovered: "recovered"
    }
  }
}
