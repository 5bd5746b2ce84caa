import ComposableCore
import ComposableTesting
import Testing

/// A stack of ``Child`` screens over a list, as seed 003's root keeps its
/// path: `push` appends a screen, `popToRoot` empties the stack.
private struct Navigator: Reducer {
  struct State: Equatable, Sendable, Codable {
    var path = StackState<Child.State>()
    var log: [String] = []
  }
  enum Action: Equatable, Sendable, Codable {
    case path(StackAction<Child.State, Child.Action>)
    case push
    case popToRoot
    case replaceStack

    var path: StackAction<Child.State, Child.Action>? { if case .path(let a) = self { a } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push: state.path.append(Child.State())
      case .popToRoot: state.path.removeAll()
      case .replaceStack: state.path = [Child.State(count: 9)]
      case .path(.popFrom(let id)): state.log.append("popping from \(id)")
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: CasePath(Action.path, \.path)) { Child() }
  }
}

/// TCA's `StackReducerTests`, for the daemon's stack: ids handed out in
/// order and never again, a screen's effects cancelled when it goes, and an
/// action for a screen that is gone reported, not applied.
@Suite struct StackReducerTests {
  private func makeStore(_ screens: Int = 0) -> TestStore<Navigator> {
    TestStore(initialState: Navigator.State(path: StackState(Array(repeating: Child.State(), count: screens)))) {
      Navigator()
    }
  }

  @Test func aScreensActionRunsOnThatScreen() {
    let store = makeStore(2)
    store.send(.path(.element(id: 1, action: .increment))) { $0.path[id: 1]?.count = 1 }
    store.send(.path(.element(id: 0, action: .increment))) { $0.path[id: 0]?.count = 1 }
  }

  @Test func idsAreNeverReusedEvenAfterAPop() {
    let store = makeStore()
    store.send(.push) { $0.path.append(Child.State()) }
    store.send(.push) { $0.path.append(Child.State()) }
    #expect(store.state.path.ids == [0, 1])
    store.send(.path(.popFrom(id: 1))) {
      $0.path.removeLast()
      $0.log = ["popping from 1"]
    }
    store.send(.push) { $0.path.append(Child.State()) }
    #expect(store.state.path.ids == [0, 2])
    store.send(.popToRoot) { $0.path.removeAll() }
    store.send(.push) { $0.path.append(Child.State()) }
    #expect(store.state.path.ids == [3])
    #expect(store.state.path.nextID == 4)
  }

  @Test func poppingAScreenCancelsItsEffectsOnly() {
    let store = makeStore(2)
    store.send(.path(.element(id: 0, action: .start)))
    store.send(.path(.element(id: 1, action: .start)))
    #expect(store.inFlight.count == 2)
    store.send(.path(.popFrom(id: 1))) {
      $0.path.removeLast()
      $0.log = ["popping from 1"]
    }
    #expect(store.inFlight.map(\.scope) == [[.element("\\State.path", AnyHashableSendable(StackElementID(0)))]])
    store.advance(by: .seconds(1))
    store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.count = 1 }
  }

  /// A swipe back over several screens pops them all and cancels all their
  /// effects, keeping those of the screens below.
  @Test func poppingFromAScreenPopsEveryScreenAboveIt() {
    let store = makeStore(4)
    for id in 0..<4 { store.send(.path(.element(id: StackElementID(rawValue: id), action: .start))) }
    store.send(.path(.popFrom(id: 1))) {
      $0.path.removeLast(3)
      $0.log = ["popping from 1"]
    }
    #expect(store.state.path.ids == [0])
    #expect(store.inFlight.count == 1)
    store.skipInFlightEffects()
  }

  /// A screen the parent removes (here, all of them) has its effects
  /// cancelled too.
  @Test func screensTheParentRemovesHaveTheirEffectsCancelled() {
    let store = makeStore(2)
    store.send(.path(.element(id: 0, action: .start)))
    store.send(.path(.element(id: 1, action: .start)))
    store.send(.popToRoot) { $0.path.removeAll() }
    #expect(store.inFlight.isEmpty)
    store.advance(by: .seconds(5))
  }

  /// The late answer of a popped screen's effect reaches no newer screen:
  /// the effect is cancelled and the new screen has another id.
  @Test func aPoppedScreensTimerNeverReachesTheScreenPushedAfterIt() {
    let store = makeStore(1)
    store.send(.path(.element(id: 0, action: .start)))
    store.send(.path(.popFrom(id: 0))) {
      $0.path.removeAll()
      $0.log = ["popping from 0"]
    }
    store.send(.push) { $0.path.append(Child.State()) }
    store.advance(by: .seconds(1))
    #expect(store.state.path[id: 1]?.count == 0)
  }

  @Test func anActionForAScreenThatIsGoneIsReportedAndDropped() {
    let store = makeStore(1)
    withKnownIssue {
      store.send(.path(.element(id: 5, action: .increment)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("path has no screen with id 5; the action was dropped") }
    }
    withKnownIssue {
      store.send(.path(.popFrom(id: 5))) { $0.log = ["popping from 5"] }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("path has no screen with id 5") }
    }
  }

  @Test func aPushNeedsTheNextID() {
    let store = makeStore(1)
    store.send(.path(.push(id: 1, state: Child.State(count: 7)))) { $0.path.append(Child.State(count: 7)) }
    withKnownIssue {
      store.send(.path(.push(id: 1, state: Child.State())))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("path pushes the next screen as id 2, not 1") }
    }
  }

  /// The daemon's store refuses such an action: the state, its version and
  /// the effects are as they were, and the reason says which screen is gone.
  @Test func aStoreRefusingDroppedActionsLeavesAGoneScreensActionNoTrace() throws {
    let executor = RecordingExecutor()
    let initial = Navigator.State(path: [Child.State()])
    let store = Store(initialState: initial, reducer: Navigator(), executor: executor)
    for action in [Navigator.Action.path(.element(id: 3, action: .start)), .path(.popFrom(id: 3))] {
      #expect {
        try store.sendRefusingDropped(action)
      } throws: { error in
        (error as? DroppedAction)?.reason == "path has no screen with id 3"
      }
    }
    #expect(store.version == 0)
    #expect(store.state == initial)
    #expect(executor.started.isEmpty)
  }

  @Test func recoveryAsksEveryScreenBottomFirst() {
    struct Waiting: RecoverableFeature {
      var body: some Reducer<Child.State, Child.Action> { Child() }
      func recoveryAction(for state: Child.State) -> Child.Action? { state.count > 0 ? .start : nil }
    }
    let reducer = Reduce<Navigator.State, Navigator.Action> { _, _ in .none }
      .forEach(\.path, action: CasePath(Navigator.Action.path, \.path)) { Waiting() }
    let state = Navigator.State(path: [Child.State(count: 1), Child.State(), Child.State(count: 2)])
    #expect(
      reducer.recoveryActions(for: state) == [
        .path(.element(id: 0, action: .start)), .path(.element(id: 2, action: .start)),
      ])
  }

  /// A reducer that replaces the whole stack (ids starting again at 0) has
  /// its new screens numbered on from the old stack's next id, and the old
  /// screens' effects cancelled: no action or late answer meant for an old
  /// screen reaches a new one.
  @Test func aReplacedStackGoesOnNumberingAndCancelsTheOldScreens() {
    let store = makeStore(2)
    store.send(.path(.element(id: 0, action: .start)))
    store.send(.replaceStack) {
      $0.path.removeAll()
      $0.path.append(Child.State(count: 9))
    }
    #expect(store.state.path.ids == [2])
    #expect(store.inFlight.isEmpty)
    store.advance(by: .seconds(1))
  }
}
