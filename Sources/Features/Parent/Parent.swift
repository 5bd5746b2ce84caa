import ComposableCore

/// Seed 003's `ParentFeature`: a counter (``Counter``, with its number
/// facts) and an optional settings screen (``Settings``) presented over it,
/// composed with `Scope` and `ifLet` as the seed composes them.
///
/// "Settings" presents the screen with a draft of the current
/// ``State/preferences``; its "Save" keeps a valid draft and closes it (an
/// invalid one stays open, its error shown), "Cancel" and a dismissal close
/// it and keep the preferences.
public struct Parent: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var counter: Counter.State
    /// The saved settings.
    public var preferences: Preferences
    /// The settings screen, while it is presented.
    public var settings: Settings.State?

    public init(
      counter: Counter.State = Counter.State(), preferences: Preferences = Preferences(),
      settings: Settings.State? = nil
    ) {
      self.counter = counter
      self.preferences = preferences
      self.settings = settings
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case counter(Counter.Action)
    /// "Settings": presents the settings screen over the counter.
    case settingsButtonTapped
    /// An action of the settings screen, or its dismissal.
    case settings(PresentationAction<Settings.Action>)

    var counter: Counter.Action? { if case .counter(let action) = self { action } else { nil } }
    var settings: PresentationAction<Settings.Action>? { if case .settings(let action) = self { action } else { nil } }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: CasePath(Action.counter, \.counter)) { Counter() }
    Reduce { state, action in
      switch action {
      case .settingsButtonTapped:
        state.settings = Settings.State(draft: state.preferences)
        return .none

      case .settings(.presented(.saveButtonTapped)):
        guard let settings = state.settings, settings.canSave else { return .none }
        state.preferences = settings.draft
        state.settings = nil
        return .none

      case .settings(.presented(.cancelButtonTapped)):
        state.settings = nil
        return .none

      case .counter, .settings:
        return .none
      }
    }
    .ifLet(\.settings, action: CasePath(Action.settings, \.settings)) { Settings() }
  }
}
