import ComposableCore

/// Seed 003's settings screen, presented by ``Parent`` over its counter: a
/// form over a draft of the ``Preferences``, set by bindings, with the
/// reason the draft cannot be saved kept in state for any client to show.
/// Saving and cancelling are the parent's to handle: it copies a valid
/// draft into its preferences and dismisses the screen.
public struct Settings: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// What the form shows and edits.
    public var draft: Preferences
    /// Why the draft cannot be saved, or `nil`; recomputed after each change.
    public var displayNameError: String?

    public init(draft: Preferences = Preferences()) {
      self.draft = draft
      self.displayNameError = draft.displayNameError
    }

    /// Whether "Save" saves: the draft is valid.
    public var canSave: Bool { displayNameError == nil }
  }

  public enum Action: Equatable, Sendable, Codable, BindableAction {
    /// Sets a field of the draft: `displayName`, `theme`, `isHapticFeedbackEnabled`.
    case binding(BindingAction<State>)
    /// "Save": the parent keeps the draft if it is valid and closes the screen.
    case saveButtonTapped
    /// "Cancel": the parent closes the screen, keeping its preferences.
    case cancelButtonTapped

    public var binding: BindingAction<State>? {
      if case .binding(let action) = self { action } else { nil }
    }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      if case .binding = action { state.displayNameError = state.draft.displayNameError }
      return .none
    }
  }
}

extension Settings.State: BindableState {
  public static var bindableFields: [BindableField<Self>] {
    [
      BindableField("displayName", \.draft.displayName, "Sets the name to greet you with"),
      BindableField("theme", \.draft.theme, "Sets the theme"),
      BindableField("isHapticFeedbackEnabled", \.draft.isHapticFeedbackEnabled, "Turns haptic feedback on or off"),
    ]
  }
}
