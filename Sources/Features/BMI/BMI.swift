import ComposableCore

/// The BMI calculator with history (seed 002, the seed's `AppReducer`): a
/// calculator tab and a history tab, coordinated so that a successful save
/// switches to the history and reloads it.
///
/// Unlike the seed, the switch happens only once storage has confirmed the save
/// (`.input(.saved)`), not on every tap of the save button, so an invalid form
/// or a failed save leaves the calculator on screen with its message.
///
/// After storedaemon restarts, ``Action/recovered`` passes on the restart to
/// the tab that was waiting on an effect: ``BMIInput/Action/recovered`` for a
/// save in flight, ``BMIHistory/Action/recovered`` for a load.
public struct BMI: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// The calculator form.
    public var input: BMIInput.State
    /// The saved measurements.
    public var history: BMIHistory.State
    /// The tab on screen.
    public var selectedTab: BMITab

    public init(
      input: BMIInput.State = BMIInput.State(), history: BMIHistory.State = BMIHistory.State(),
      selectedTab: BMITab = .input
    ) {
      self.input = input
      self.history = history
      self.selectedTab = selectedTab
    }

    /// Whether either tab waits on an effect (a save or a load in flight).
    /// ``Action/recovered`` restarts what this covers.
    public var isAwaitingEffect: Bool { input.isAwaitingEffect || history.isAwaitingEffect }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// An action of the calculator form.
    case input(BMIInput.Action)
    /// An action of the history.
    case history(BMIHistory.Action)
    /// A tab was chosen; choosing the history reloads it.
    case tabSelected(BMITab)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. Sends the recovery
    /// action of each tab that was waiting on one; otherwise nothing happens.
    case recovered

    /// The calculator's action, if this is one (for `Scope`).
    public var input: BMIInput.Action? {
      if case .input(let action) = self { action } else { nil }
    }

    /// The history's action, if this is one (for `Scope`).
    public var history: BMIHistory.Action? {
      if case .history(let action) = self { action } else { nil }
    }
  }

  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.input, action: CasePath(Action.input, \.input)) {
      BMIInput()
    }
    Scope(state: \.history, action: CasePath(Action.history, \.history)) {
      BMIHistory()
    }
    Reduce { state, action in
      switch action {
      case .input(.saved):
        state.selectedTab = .history
        return .send(.history(.onAppear))

      case .tabSelected(let tab):
        state.selectedTab = tab
        return tab == .history ? .send(.history(.onAppear)) : .none

      case .recovered:
        return .merge(
          state.input.isAwaitingEffect ? .send(.input(.recovered)) : .none,
          state.history.isAwaitingEffect ? .send(.history(.recovered)) : .none)

      case .input, .history:
        return .none
      }
    }
  }
}
