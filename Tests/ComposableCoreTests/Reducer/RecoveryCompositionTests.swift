import ComposableCore
import Testing

/// A feature that waits on an effect while `waiting` is set, and then names
/// `recovered` (or, as a parent, its own `restart`) as its recovery action.
private struct WaitingFeature: RecoverableFeature {
  struct State: Equatable, Identifiable {
    var id = 0
    var waiting = false
  }
  enum Action: Equatable, Sendable {
    case recovered
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.waiting = false
    return .none
  }

  func recoveryAction(for state: State) -> Action? {
    state.waiting ? .recovered : nil
  }
}

/// A parent that composes waiters with every combinator, and waits itself.
private struct WaiterHost: RecoverableFeature {
  struct State: Equatable {
    var waiting = false
    var scoped = WaitingFeature.State()
    var optional: WaitingFeature.State?
    var elements = IdentifiedArray<WaitingFeature.State>()
    var either = WaitingFeature.State()
    var grouped = WaitingFeature.State()
  }
  enum Action: Equatable, Sendable {
    case restart
    case scoped(WaitingFeature.Action)
    case optional(WaitingFeature.Action)
    case element(IdentifiedAction<Int, WaitingFeature.Action>)
    case either(WaitingFeature.Action)
    case grouped(WaitingFeature.Action)

    var scoped: WaitingFeature.Action? { if case .scoped(let action) = self { action } else { nil } }
    var optional: WaitingFeature.Action? { if case .optional(let action) = self { action } else { nil } }
    var element: IdentifiedAction<Int, WaitingFeature.Action>? {
      if case .element(let action) = self { action } else { nil }
    }
    var either: WaitingFeature.Action? { if case .either(let action) = self { action } else { nil } }
    var grouped: WaitingFeature.Action? { if case .grouped(let action) = self { action } else { nil } }
  }

  var useEither = true

  var body: some Reducer<State, Action> {
    Scope(state: \.scoped, action: CasePath(Action.scoped, \.scoped)) { WaitingFeature() }
    Reduce { _, _ in .none }
      .ifLet(\.optional, action: CasePath(Action.optional, \.optional)) { WaitingFeature() }
      .forEach(\.elements, action: CasePath(Action.element, \.element)) { WaitingFeature() }
    if useEither {
      Scope(state: \.either, action: CasePath(Action.either, \.either)) { WaitingFeature() }
    } else {
      EmptyReducer()
    }
    CombineReducers {
      Scope(state: \.grouped, action: CasePath(Action.grouped, \.grouped)) { Reduce(WaitingFeature()) }
    }
    .onChange(of: \.waiting) { _, _ in EmptyReducer() }
  }

  func recoveryAction(for state: State) -> Action? {
    state.waiting ? .restart : nil
  }
}

@Suite struct RecoveryCompositionTests {
  @Test func aFeatureAnswersItsOwnRecoveryAction() {
    #expect(WaitingFeature().recoveryActions(for: WaitingFeature.State(waiting: true)) == [.recovered])
    #expect(WaitingFeature().recoveryActions(for: WaitingFeature.State()) == [])
  }

  @Test func nothingWaitingAnswersNothing() {
    var state = WaiterHost.State()
    state.optional = WaitingFeature.State()
    state.elements = IdentifiedArray(uniqueElements: [WaitingFeature.State(id: 1), WaitingFeature.State(id: 2)])
    #expect(WaiterHost().recoveryActions(for: state) == [])
    // A reducer that is not recoverable, composed of none, answers nothing.
    #expect(
      Reduce<WaitingFeature.State, WaitingFeature.Action> { _, _ in .none }.recoveryActions(
        for: WaitingFeature.State(waiting: true)) == [])
  }

  @Test func everyCombinatorForwardsToItsChildrenAndEmbedsTheirActions() {
    var state = WaiterHost.State(waiting: true)
    state.scoped.waiting = true
    state.optional = WaitingFeature.State(waiting: true)
    state.elements = IdentifiedArray(uniqueElements: [
      WaitingFeature.State(id: 7, waiting: true), WaitingFeature.State(id: 8),
      WaitingFeature.State(id: 9, waiting: true),
    ])
    state.either.waiting = true
    state.grouped.waiting = true
    // The parent's own first, then its body's in the order the reducers run;
    // within ifLet and forEach, the children before the reducer they wrap.
    #expect(
      WaiterHost().recoveryActions(for: state) == [
        .restart, .scoped(.recovered), .element(.element(id: 7, action: .recovered)),
        .element(.element(id: 9, action: .recovered)), .optional(.recovered), .either(.recovered),
        .grouped(.recovered),
      ])
  }

  @Test func absentOrUnbuiltChildrenAreNotAsked() {
    var state = WaiterHost.State()
    state.either.waiting = true
    state.optional = nil
    #expect(WaiterHost(useEither: false).recoveryActions(for: state) == [])
    #expect(WaiterHost(useEither: true).recoveryActions(for: state) == [.either(.recovered)])
  }
}
