import ActionLanguage
import ComposableCore

extension BMIInput.Action: DescribedAction {
  /// `bmi.input.binding.height 180`, `bmi.input.saveButtonTapped`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.binding(.set(\.height, "180")), "Sets a form field"),
    .init(.saveButtonTapped, "Saves the measurement to the history, if valid"),
    .init(.saved(.example), "Storage stored the record", sentBy: .storageEffect),
    .init(.saveFailed(.example), "Storage could not store the measurement", sentBy: .storageEffect),
    .init(.dismissAlert, "Dismisses the saved confirmation or the save error"),
    .init(.alert(.dismiss), "The \"BMI Saved!\" alert's OK, or closing it"),
    .init(.recovered, "Stores again the record that was being saved", sentBy: .recovery),
  ]
}

extension BMIInput.Alert: DescribedAction {
  /// `bmi.input.alert.presented.okButtonTapped`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.okButtonTapped, "\"OK\": the confirmation is read")
  ]
}
