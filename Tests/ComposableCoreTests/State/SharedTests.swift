import ComposableCore
import ComposableTesting
import JSON
import Testing

/// A step counter whose step is the settings' step, shared.
private struct Stepper: Reducer {
  struct State: Equatable, Sendable, Codable {
    var value = 0
    @Shared var step: Int

    init(value: Int = 0) {
      self.value = value
      _step = Shared()
    }
  }
  enum Action: Equatable, Sendable, Codable { case stepTapped, doubleStep }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .stepTapped: state.value += state.step
      case .doubleStep: state.step *= 2
      }
      return .none
    }
  }
}

/// A root holding the step once, and steppers that share it: one alone,
/// and one per row of a list, each row sharing its own entry of a table.
private struct Panel: Reducer {
  struct Row: Equatable, Sendable, Codable, Identifiable {
    var id: Int
    var stepper = Stepper.State()
  }
  struct State: Equatable, Sendable, Codable {
    var step = 1
    var stepper = Stepper.State()
    var rows: IdentifiedArrayOf<Row> = []
    var rowSteps: [Int: Int] = [:]
    var watched = Stepper.State()
  }
  enum Action: Equatable, Sendable, Codable {
    case stepper(Stepper.Action)
    case rows(IdentifiedAction<Int, Stepper.Action>)
    case watched(Stepper.Action)
    case setStep(Int)

    var stepper: Stepper.Action? { if case .stepper(let a) = self { a } else { nil } }
    var rows: IdentifiedAction<Int, Stepper.Action>? { if case .rows(let a) = self { a } else { nil } }
    var watched: Stepper.Action? { if case .watched(let a) = self { a } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.stepper, action: CasePath(Action.stepper, \.stepper)) { Stepper() }
      .sharing(\.step, with: \.stepper.$step, for: { $0.stepper != nil })
    Reduce<State, Action> { _, _ in .none }
      .forEach(\.rows, action: CasePath(Action.rows, \.rows)) {
        Scope(state: \Row.stepper, action: CasePath({ $0 }, { $0 })) { Stepper() }
      }
      .sharing(
        key: { action in if case .rows(.element(let id, _)) = action { id } else { nil } },
        source: { state, id in state.rowSteps[id] ?? 1 }, store: { state, id, step in state.rowSteps[id] = step },
        copy: { id in
          SharedCopy(get: { $0.rows[id: id]?.stepper.$step }, set: { $0.rows[id: id]?.stepper.$step = $1 })
        })
    Scope(state: \.watched, action: CasePath(Action.watched, \.watched)) { Stepper() }
      .sharing(reading: \.step, with: \.watched.$step, for: { $0.watched != nil })
    Reduce { state, action in
      if case .setStep(let step) = action { state.step = step }
      return .none
    }
  }
}

/// The daemon's answer to TCA's `@Shared`: a value held once in the state,
/// read and written by the features that share it as their own.
@Suite struct SharedTests {
  @Test func aFeatureReadsAndWritesTheValueWhereItLives() {
    let store = TestStore(initialState: Panel.State()) { Panel() }
    store.send(.stepper(.stepTapped)) { $0.stepper.value = 1 }
    store.send(.setStep(5)) { $0.step = 5 }
    store.send(.stepper(.stepTapped)) { $0.stepper.value = 6 }
    // The feature's change lands where the value lives, and nowhere else.
    store.send(.stepper(.doubleStep)) { $0.step = 10 }
    #expect(!store.state.stepper.$step.isFilled)
  }

  @Test func eachElementSharesItsOwnEntryAndOnlyThatOneIsFilled() {
    let store = TestStore(initialState: Panel.State(rows: [Panel.Row(id: 1), Panel.Row(id: 2)], rowSteps: [2: 3])) {
      Panel()
    }
    store.send(.rows(.element(id: 2, action: .stepTapped))) { $0.rows[id: 2]?.stepper.value = 3 }
    store.send(.rows(.element(id: 1, action: .doubleStep))) { $0.rowSteps[1] = 2 }
    store.send(.rows(.element(id: 1, action: .stepTapped))) { $0.rows[id: 1]?.stepper.value = 2 }
    #expect(store.state.rows.allSatisfy { !$0.stepper.$step.isFilled })
  }

  @Test func aValueSharedForReadingIsNotWrittenBack() {
    let store = TestStore(initialState: Panel.State(step: 4)) { Panel() }
    store.send(.watched(.stepTapped)) { $0.watched.value = 4 }
    store.send(.watched(.doubleStep))
    #expect(store.state.step == 4)
  }

  /// Held once: the shared copy is left out of the JSON, so a change to the
  /// value is one operation in a diff, and reads back not filled.
  @Test func theValueIsInTheJSONOnceAndAChangeIsOneOperation() throws {
    let store = Store(initialState: Panel.State(), reducer: Panel(), executor: RecordingExecutor())
    let before = try JSONValueEncoder.encode(store.state)
    store.send(.stepper(.doubleStep))
    let after = try JSONValueEncoder.encode(store.state)
    #expect(JSONPatch.diff(from: before, to: after).map(\.path.description) == ["/step"])
    #expect(CanonicalJSON.text(after).contains(#""stepper":{"value":0}"#))
    let read = try CanonicalJSON.decode(Panel.State.self, from: after)
    #expect(read == store.state)
    #expect(!read.stepper.$step.isFilled)
  }

  @Test func aFeatureAloneHoldsItsOwnValue() {
    var state = Stepper.State()
    state.step = 3
    let store = TestStore(initialState: state) { Stepper() }
    store.send(.stepTapped) { $0.value = 3 }
    store.send(.doubleStep) { $0.step = 6 }
  }
}
