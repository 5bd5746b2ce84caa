import ActionLanguage
import ComposableCore

extension Parent.Action: DescribedAction {
  /// `parent.counter.incrementButtonTapped`, `parent.settingsButtonTapped`,
  /// `parent.settings.presented.binding.theme dark`, `parent.settings.dismiss`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("counter", "The counter with number facts", .unlabeled("action", Counter.Action.self)),
      ActionCase("settingsButtonTapped", "Opens the settings over the counter"),
      ActionCase(
        "settings", "The settings screen, while open", .unlabeled("action", PresentationAction<Settings.Action>.self)),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .counter: "counter"
    case .settingsButtonTapped: "settingsButtonTapped"
    case .settings: "settings"
    }
  }
}

extension Settings.Action: DescribedAction {
  /// `binding.displayName Ada`, `binding.theme dark`, `saveButtonTapped`, `cancelButtonTapped`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("binding", "Sets a field of the form", .unlabeled("binding", BindingAction<Settings.State>.self)),
      ActionCase("saveButtonTapped", "Saves the settings, if valid, and closes the screen"),
      ActionCase("cancelButtonTapped", "Closes the screen without saving"),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .binding: "binding"
    case .saveButtonTapped: "saveButtonTapped"
    case .cancelButtonTapped: "cancelButtonTapped"
    }
  }
}

extension Settings.State: DescribedBindableState {
  public static var describedFields: [BindableFieldSchema<Self>] {
    [
      BindableFieldSchema(\.draft.displayName, "Sets the name to greet you with"),
      BindableFieldSchema(\.draft.theme, "Sets the theme"),
      BindableFieldSchema(\.draft.isHapticFeedbackEnabled, "Turns haptic feedback on or off"),
    ]
  }
}

/// Written as its raw value: `system`, `light`, `dark`.
extension Theme: DescribedValue {}
