import ActionLanguage
import ComposableCore

extension BMIInput.Action: DescribedAction {
  /// `bmi.input.binding.height 180`, `bmi.input.saveButtonTapped`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("binding", "Sets a form field", .unlabeled("binding", BindingAction<BMIInput.State>.self)),
      ActionCase("saveButtonTapped", "Saves the measurement to the history, if valid"),
      ActionCase("saved", "Storage stored the record", sentBy: .storageEffect, .unlabeled("record", BMIRecord.self)),
      ActionCase(
        "saveFailed", "Storage could not store the measurement", sentBy: .storageEffect,
        .unlabeled("failure", EffectFailure.self)),
      ActionCase("dismissAlert", "Dismisses the saved confirmation or the save error"),
      ActionCase(
        "alert", "The \"BMI Saved!\" alert's OK, or closing it",
        .unlabeled("action", PresentationAction<BMIInput.Alert>.self)),
      ActionCase("recovered", "Stores again the record that was being saved", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .binding: "binding"
    case .saveButtonTapped: "saveButtonTapped"
    case .saved: "saved"
    case .saveFailed: "saveFailed"
    case .dismissAlert: "dismissAlert"
    case .alert: "alert"
    case .recovered: "recovered"
    }
  }
}

extension BMIInput.State: DescribedBindableState {
  /// Both fields hold text as typed, validated after each binding.
  public static var describedFields: [BindableFieldSchema<Self>] {
    [
      BindableFieldSchema(\.height, "Sets the height in centimetres, as typed"),
      BindableFieldSchema(\.weight, "Sets the weight in kilograms, as typed"),
    ]
  }
}

extension BMIInput.Alert: DescribedAction {
  /// `bmi.input.alert.presented.okButtonTapped`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [ActionCase("okButtonTapped", "\"OK\": the confirmation is read")])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .okButtonTapped: "okButtonTapped"
    }
  }
}
