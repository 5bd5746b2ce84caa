import ComposableCore
import ComposableTesting
import Synchronization
import Testing

/// A counter used as a child in composition tests; `.start` runs a cancellable
/// one-second timer, `.stop` cancels it.
struct Child: Reducer {
  struct State: Equatable, Sendable, Codable, Identifiable {
    var id: Int = 0
    var count = 0
  }
  enum Action: Equatable, Sendable, Codable {
    case start, stop, tick, increment
  }
  enum CancelID { case timer }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start: return .timer(after: .seconds(1), send: .tick).cancellable(id: CancelID.timer)
      case .stop: return .cancel(id: CancelID.timer)
      case .tick, .increment:
        state.count += 1
        return .none
      }
    }
  }
}

struct Parent: Reducer {
  struct State: Equatable, Sendable, Codable {
    var left = Child.State()
    var right = Child.State()
    var optional: Child.State?
    var presented: Child.State?
    var rows: IdentifiedArrayOf<Child.State> = []
    var log: [String] = []
  }
  enum Action: Equatable, Sendable, Codable {
    case left(Child.Action)
    case right(Child.Action)
    case optional(Child.Action)
    case presented(PresentationAction<Child.Action>)
    case rows(IdentifiedAction<Int, Child.Action>)
    case setOptional(Bool)
    case present
    case removeRow(Int)

    var left: Child.Action? { if case .left(let a) = self { a } else { nil } }
    var right: Child.Action? { if case .right(let a) = self { a } else { nil } }
    var optional: Child.Action? { if case .optional(let a) = self { a } else { nil } }
    var presented: PresentationAction<Child.Action>? { if case .presented(let a) = self { a } else { nil } }
    var rows: IdentifiedAction<Int, Child.Action>? { if case .rows(let a) = self { a } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: CasePath(Action.left, \.left)) { Child() }
    Scope(state: \.right, action: CasePath(Action.right, \.right)) { Child() }
    Reduce { state, action in
      switch action {
      case .setOptional(let present): state.optional = present ? Child.State() : nil
      case .present: state.presented = Child.State()
      case .removeRow(let id): state.rows.remove(id: id)
      default: break
      }
      return .none
    }
    .ifLet(\.optional, action: CasePath(Action.optional, \.optional)) { Child() }
    .ifLet(\.presented, action: CasePath(Action.presented, \.presented)) { Child() }
    .forEach(\.rows, action: CasePath(Action.rows, \.rows)) { Child() }
  }
}

@Suite struct CompositionTests {
  @Test func reducersInABodyRunInOrder() {
    struct Ordered: Reducer {
      var body: some Reducer<[String], String> {
        Reduce { state, action in
          state.append("first \(action)")
          return .none
        }
        Reduce { state, action in
          state.append("second \(action)")
          return .none
        }
      }
    }
    let store = Store(initialState: [], reducer: Ordered(), executor: RecordingExecutor())
    store.send("a")
    #expect(store.state == ["first a", "second a"])
  }

  @Test func scopeRunsChildOnItsStateOnly() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.left(.increment)) { $0.left.count = 1 }
    store.send(.right(.increment)) { $0.right.count = 1 }
  }

  @Test func siblingsCannotCancelEachOthersEffects() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.left(.start))
    store.send(.right(.start))
    store.send(.right(.stop))
    #expect(store.inFlight.count == 1)
    #expect(store.inFlight.first?.scope == [.named("\\State.left")])
    store.advance(by: .seconds(1))
    store.receive(.left(.tick)) { $0.left.count = 1 }
  }

  @Test func ifLetCancelsChildEffectsWhenStateBecomesNil() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.setOptional(true)) { $0.optional = Child.State() }
    store.send(.optional(.start))
    #expect(store.inFlight.count == 1)
    store.send(.setOptional(false)) { $0.optional = nil }
    #expect(store.inFlight.isEmpty)
    store.advance(by: .seconds(5))
  }

  @Test func ifLetReportsAndDropsActionsWhileNil() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    withKnownIssue {
      store.send(.optional(.increment))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("optional is nil; the action was dropped") }
    }
  }

  @Test func dismissingADestinationClearsItAndCancelsItsEffects() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.present) { $0.presented = Child.State() }
    store.send(.presented(.presented(.start)))
    #expect(store.inFlight.count == 1)
    store.send(.presented(.dismiss)) { $0.presented = nil }
    #expect(store.inFlight.isEmpty)
  }

  @Test func forEachRunsTheNamedElement() {
    let store = TestStore(initialState: Parent.State(rows: [Child.State(id: 1), Child.State(id: 2)])) { Parent() }
    store.send(.rows(.element(id: 2, action: .increment))) { $0.rows[id: 2]?.count = 1 }
  }

  @Test func forEachElementsCannotCancelEachOther() {
    let store = TestStore(initialState: Parent.State(rows: [Child.State(id: 1), Child.State(id: 2)])) { Parent() }
    store.send(.rows(.element(id: 1, action: .start)))
    store.send(.rows(.element(id: 2, action: .start)))
    store.send(.rows(.element(id: 1, action: .stop)))
    #expect(store.inFlight.map(\.scope) == [[.element("\\State.rows", AnyHashableSendable(2))]])
    store.advance(by: .seconds(1))
    store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.count = 1 }
  }

  @Test func removingAnElementCancelsItsEffects() {
    let store = TestStore(initialState: Parent.State(rows: [Child.State(id: 1), Child.State(id: 2)])) { Parent() }
    store.send(.rows(.element(id: 1, action: .start)))
    store.send(.rows(.element(id: 2, action: .start)))
    store.send(.removeRow(1)) { $0.rows.remove(id: 1) }
    #expect(store.inFlight.count == 1)
    store.advance(by: .seconds(1))
    store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.count = 1 }
  }

  @Test func actionForAMissingElementIsReportedAndDropped() {
    let store = TestStore(initialState: Parent.State(rows: [Child.State(id: 1)])) { Parent() }
    withKnownIssue {
      store.send(.rows(.element(id: 9, action: .increment)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("id 9") && $0.rawValue.contains("dropped") }
    }
    #expect(store.state.rows[id: 1]?.count == 0)
  }

  /// A store that refuses dropped actions puts the state back, produces no
  /// version and starts no effect, and says what was missing.
  @Test(arguments: [
    (Parent.Action.rows(.element(id: 9, action: .start)), "rows has no element with id 9"),
    (Parent.Action.presented(.presented(.start)), "nothing is presented at presented"),
    (Parent.Action.optional(.start), "optional is nil"),
  ])
  func aStoreRefusingDroppedActionsLeavesNoTrace(_ action: Parent.Action, _ reason: String) throws {
    let executor = RecordingExecutor()
    let store = Store(initialState: Parent.State(rows: [Child.State(id: 1)]), reducer: Parent(), executor: executor)
    var reduced = 0
    store.didReduce = { _, _, _ in reduced += 1 }
    #expect {
      try store.sendRefusingDropped(action)
    } throws: { error in
      (error as? DroppedAction)?.reason == reason
    }
    #expect(store.version == 0)
    #expect(store.state == Parent.State(rows: [Child.State(id: 1)]))
    #expect(reduced == 0)
    #expect(executor.started.isEmpty)
    #expect(try store.sendRefusingDropped(.rows(.element(id: 1, action: .start))) == 1)
    #expect(executor.started.count == 1)
  }

  /// A caller that keeps the state as it was before the action (the
  /// daemon keeps the last state it published) puts it back itself: what a
  /// reducer changed before another dropped the action is undone by it.
  @Test func aDroppedActionIsUndoneByTheCallersPutBack() throws {
    let store = Store(initialState: Parent.State(), reducer: LoggingParent(), executor: RecordingExecutor())
    #expect(store.reduce(.left(.increment)) == 1)
    while store.reduceNext({ _, _, _ in }) {}
    let before = store.state
    #expect(before.log.count == 1)
    var putBacks = 0
    #expect(throws: DroppedAction.self) {
      try store.reduceRefusingDropped(.optional(.start), origin: 1) { state in
        putBacks += 1
        state = before
      }
    }
    #expect(putBacks == 1)
    #expect(store.state == before)
    #expect(store.version == 1)
    // Without one, the store puts back the copy it took.
    #expect(throws: DroppedAction.self) { try store.reduceRefusingDropped(.optional(.start), origin: 2) }
    #expect(store.state == before)
    #expect(store.version == 1)
  }

  /// Reducing many actions with the store's dependencies and recorder bound
  /// once for all of them changes nothing the actions see: a dropped action
  /// is refused where refusing is asked for (and the next is not blamed for
  /// it), and reported where not.
  @Test func reducingManyRefusesAndReportsDropsAsSingleActionsDo() throws {
    let executor = RecordingExecutor()
    let store = Store(initialState: Parent.State(rows: [Child.State(id: 1)]), reducer: Parent(), executor: executor)
    try store.reducingMany { () throws -> Void in
      #expect {
        try store.sendRefusingDropped(.rows(.element(id: 9, action: .start)))
      } throws: { error in
        (error as? DroppedAction)?.reason == "rows has no element with id 9"
      }
      #expect(store.version == 0)
      #expect(try store.sendRefusingDropped(.rows(.element(id: 1, action: .start))) == 1)
      let reported = Mutex<[String]>([])
      IssueReporter.$current.withValue(IssueReporter { message, _ in reported.withLock { $0.append(message) } }) {
        store.send(.rows(.element(id: 9, action: .increment)))
      }
      #expect(
        reported.withLock { $0 } == [
          "rows has no element with id 9; the action was dropped: \(Parent.Action.rows(.element(id: 9, action: .increment)))"
        ])
    }
    #expect(store.version == 2)
    #expect(executor.started.count == 1)
  }

  /// Another store's run inside one store's covers its bindings: the outer
  /// store binds its own again, and still refuses a drop.
  @Test func aStoreReducingInsideAnothersRunStillRefusesDrops() throws {
    let outer = Store(
      initialState: Parent.State(rows: [Child.State(id: 1)]), reducer: Parent(), executor: RecordingExecutor())
    let inner = Store(
      initialState: Parent.State(rows: [Child.State(id: 1)]), reducer: Parent(), executor: RecordingExecutor())
    outer.reducingMany {
      inner.reducingMany {
        #expect {
          try outer.sendRefusingDropped(.rows(.element(id: 9, action: .start)))
        } throws: { error in
          (error as? DroppedAction)?.reason == "rows has no element with id 9"
        }
        #expect {
          try inner.sendRefusingDropped(.rows(.element(id: 9, action: .start)))
        } throws: { error in
          (error as? DroppedAction)?.reason == "rows has no element with id 9"
        }
      }
    }
    #expect(outer.version == 0 && inner.version == 0)
  }

  @Test func onChangeRunsOnlyWhenTheValueChanged() {
    let reducer = Reduce<Child.State, Child.Action> { state, action in
      if action == .increment { state.count += 1 }
      return .none
    }
    .onChange(of: \.count) { old, new in
      Reduce { state, _ in
        state.id = old * 100 + new
        return .none
      }
    }
    let store = Store(initialState: Child.State(), reducer: reducer, executor: RecordingExecutor())
    store.send(.stop)
    #expect(store.state.id == 0)
    store.send(.increment)
    #expect(store.state.id == 1)
    store.send(.increment)
    #expect(store.state.id == 102)
  }
}

/// ``Parent``, logging each action before it runs: a dropped action has
/// changed the state by the time it is dropped.
private struct LoggingParent: Reducer {
  var body: some ReducerOf<Parent> {
    Reduce { state, action in
      state.log.append("\(action)")
      return .none
    }
    Parent()
  }
}
