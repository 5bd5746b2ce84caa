import ComposableCore
import ComposableTesting
import Testing

/// An enum of destinations over ``Child``, as seed 003's inventory presents
/// its add and edit forms: scoped case by case with ``CaseScope``, and
/// identified by its case, so presenting the other case is a new destination.
private struct Destination: Reducer {
  enum State: Equatable, Sendable, Codable, Identifiable {
    case add(Child.State)
    case edit(Child.State)

    var id: String {
      switch self {
      case .add: "add"
      case .edit: "edit"
      }
    }
    var add: Child.State? { if case .add(let s) = self { s } else { nil } }
    var edit: Child.State? { if case .edit(let s) = self { s } else { nil } }
  }
  enum Action: Equatable, Sendable, Codable {
    case add(Child.Action)
    case edit(Child.Action)

    var add: Child.Action? { if case .add(let a) = self { a } else { nil } }
    var edit: Child.Action? { if case .edit(let a) = self { a } else { nil } }
  }

  var body: some Reducer<State, Action> {
    CaseScope(state: CasePath(State.add, \.add), action: CasePath(Action.add, \.add)) { Child() }
    CaseScope(state: CasePath(State.edit, \.edit), action: CasePath(Action.edit, \.edit)) { Child() }
  }
}

private struct Presenter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var destination: Destination.State?
  }
  enum Action: Equatable, Sendable, Codable {
    case destination(PresentationAction<Destination.Action>)
    case addTapped
    case editTapped

    var destination: PresentationAction<Destination.Action>? {
      if case .destination(let a) = self { a } else { nil }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addTapped: state.destination = .add(Child.State())
      case .editTapped: state.destination = .edit(Child.State(id: 7))
      case .destination: break
      }
      return .none
    }
    .ifLet(\.destination, action: CasePath(Action.destination, \.destination)) { Destination() }
  }
}

/// TCA's `PresentationReducerTests` and `IfCaseLetReducerTests`, for an
/// optional enum of features: each case runs its own feature, an action for
/// a case that is not presented is reported, and the effects of a case stop
/// when it goes, dismissed or replaced by another case.
@Suite struct DestinationTests {
  @Test func eachCaseRunsItsOwnFeature() {
    let store = TestStore(initialState: Presenter.State()) { Presenter() }
    store.send(.addTapped) { $0.destination = .add(Child.State()) }
    store.send(.destination(.presented(.add(.increment)))) { $0.destination = .add(Child.State(count: 1)) }
  }

  @Test func anActionForTheCaseNotPresentedIsReportedAndDropped() {
    let store = TestStore(initialState: Presenter.State()) { Presenter() }
    store.send(.addTapped) { $0.destination = .add(Child.State()) }
    withKnownIssue {
      store.send(.destination(.presented(.edit(.increment))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("the action is for edit, but the state is add") }
    }
  }

  @Test func presentingAnotherCaseCancelsTheEffectsOfTheOneItReplaces() {
    let store = TestStore(initialState: Presenter.State()) { Presenter() }
    store.send(.addTapped) { $0.destination = .add(Child.State()) }
    store.send(.destination(.presented(.add(.start))))
    #expect(store.inFlight.count == 1)
    store.send(.editTapped) { $0.destination = .edit(Child.State(id: 7)) }
    #expect(store.inFlight.isEmpty)
    store.send(.destination(.presented(.edit(.start))))
    store.advance(by: .seconds(1))
    store.receive(.destination(.presented(.edit(.tick)))) { $0.destination = .edit(Child.State(id: 7, count: 1)) }
  }

  @Test func presentingTheSameCaseAgainKeepsItsEffects() {
    let store = TestStore(initialState: Presenter.State()) { Presenter() }
    store.send(.addTapped) { $0.destination = .add(Child.State()) }
    store.send(.destination(.presented(.add(.start))))
    store.send(.addTapped)
    #expect(store.inFlight.count == 1)
    store.skipInFlightEffects()
  }

  @Test func dismissingCancelsTheEffectsOfThePresentedCase() {
    let store = TestStore(initialState: Presenter.State()) { Presenter() }
    store.send(.editTapped) { $0.destination = .edit(Child.State(id: 7)) }
    store.send(.destination(.presented(.edit(.start))))
    store.send(.destination(.dismiss)) { $0.destination = nil }
    #expect(store.inFlight.isEmpty)
    store.advance(by: .seconds(5))
  }

  /// The daemon's store refuses an action for a case not presented, saying
  /// which case is.
  @Test func aStoreRefusingDroppedActionsNamesThePresentedCase() throws {
    let store = Store(
      initialState: Presenter.State(destination: .add(Child.State())), reducer: Presenter(),
      executor: RecordingExecutor())
    #expect {
      try store.sendRefusingDropped(.destination(.presented(.edit(.increment))))
    } throws: { error in
      (error as? DroppedAction)?.reason == "the action is for edit, but the state is add"
    }
    #expect(store.version == 0)
  }

  /// Dismissing what is not presented is refused too, as TCA reports it:
  /// there is nothing to dismiss, and no version is spent.
  @Test func aStoreRefusesToDismissWhatIsNotPresented() throws {
    let store = Store(initialState: Presenter.State(), reducer: Presenter(), executor: RecordingExecutor())
    #expect {
      try store.sendRefusingDropped(.destination(.dismiss))
    } throws: { error in
      (error as? DroppedAction)?.reason == "nothing is presented at destination"
    }
    #expect(store.version == 0)
    let test = TestStore(initialState: Presenter.State()) { Presenter() }
    withKnownIssue {
      test.send(.destination(.dismiss))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("nothing is presented at destination") }
    }
  }

  @Test func recoveryAsksThePresentedCaseOnly() {
    struct Waiting: RecoverableFeature {
      var body: some Reducer<Child.State, Child.Action> { Child() }
      func recoveryAction(for state: Child.State) -> Child.Action? { .start }
    }
    let reducer = CaseScope(
      state: CasePath(Destination.State.edit, \.edit), action: CasePath(Destination.Action.edit, \.edit)
    ) { Waiting() }
    #expect(reducer.recoveryActions(for: .edit(Child.State())) == [.edit(.start)])
    #expect(reducer.recoveryActions(for: .add(Child.State())) == [])
  }
}
