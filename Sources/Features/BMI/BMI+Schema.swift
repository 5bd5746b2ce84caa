import ActionLanguage
import ComposableCore

extension BMI.Action: DescribedAction {
  /// `bmi.input.…`, `bmi.history.…`, `bmi.tabSelected History`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.input(.saveButtonTapped), "An action of the calculator form"),
    .init(.history(.onAppear), "An action of the saved history"),
    .init(.tabSelected(.history), "Shows a tab; the history reloads"),
    .init(.recovered, "Restarts the save or load that was in flight", sentBy: .recovery),
  ]
}
