import ActionLanguage
import ComposableCore

extension Parent.Action: DescribedAction {
  /// `parent.counter.incrementButtonTapped`, `parent.settingsButtonTapped`,
  /// `parent.settings.presented.binding.theme dark`, `parent.settings.dismiss`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.counter(.incrementButtonTapped), "The counter with number facts"),
    .init(.settingsButtonTapped, "Opens the settings over the counter"),
    .init(.settings(.dismiss), "The settings screen, while open"),
  ]
}

extension Settings.Action: DescribedAction {
  /// `binding.displayName Ada`, `binding.theme dark`, `saveButtonTapped`, `cancelButtonTapped`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.binding(.set(\.draft.displayName, "Ada")), "Sets a field of the form"),
    .init(.saveButtonTapped, "Saves the settings, if valid, and closes the screen"),
    .init(.cancelButtonTapped, "Closes the screen without saving"),
  ]
}
