import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Todos

/// The list's stories, as TCA's TodosTests tell them: adding, editing,
/// checking, deleting, filtering and clearing rows, and completed rows moving
/// down a second after the last check.
@Suite struct TodosTests {
  /// The timer every check and uncheck asks the timer worker for.
  let sortTimer = EffectRequest.timer(.after(.seconds(1)))

  /// The row ids `UUIDGenerator.incrementing()` hands out, in order.
  let a = UUID(counting: 0)
  let b = UUID(counting: 1)
  let c = UUID(counting: 2)

  /// A store holding `todos`, whose new rows get ids from ``a`` on.
  func makeStore(_ todos: [Todo.State] = [], filter: Filter = .all) -> TestStore<Todos> {
    TestStore(
      initialState: Todos.State(filter: filter, todos: IdentifiedArrayOf(uniqueElements: todos)),
      reducer: { Todos() }, withDependencies: { $0.uuid = .incrementing() })
  }

  /// Three active rows, ``a``, ``b`` and ``c`` in that order.
  var threeRows: [Todo.State] {
    [Todo.State(id: a, title: "Milk"), Todo.State(id: b, title: "Eggs"), Todo.State(id: c, title: "Hand soap")]
  }

  @Test func aNewRowIsAddedOnTopWithANewID() {
    let store = makeStore()
    store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: self.a)] }
    store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: self.b), Todo.State(id: self.a)] }
  }

  @Test func aRowsTitleIsEditedThroughItsBinding() {
    let store = makeStore()
    store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: self.a)] }
    store.send(.todos(.element(id: a, action: .binding(.set(\.title, "Learn Composable Architecture"))))) {
      $0.todos[id: self.a]?.title = "Learn Composable Architecture"
    }
  }

  @Test func aCheckedRowMovesBelowTheActiveOnesOneSecondLater() {
    let store = makeStore(threeRows)
    store.send(.todos(.element(id: a, action: .checkBoxToggled))) { $0.todos[id: self.a]?.isComplete = true }
    store.expectInFlight([sortTimer])
    // The row stays in place for the second, and moves when it is over.
    store.advance(by: .milliseconds(999))
    store.expectInFlight([sortTimer])
    store.advance(by: .milliseconds(1))
    store.receive(.sortCompletedTodos) {
      $0.todos = [self.threeRows[1], self.threeRows[2], Todo.State(id: self.a, title: "Milk", isComplete: true)]
    }
    store.expectInFlight([])
  }

  /// TCA's debounce: a check within the second restarts it, so rows checked in
  /// quick succession move down together, in their order, after the last check.
  @Test func aSecondCheckWithinTheSecondRestartsTheWait() {
    let store = makeStore(threeRows)
    store.send(.todos(.element(id: a, action: .checkBoxToggled))) { $0.todos[id: self.a]?.isComplete = true }
    store.advance(by: .milliseconds(500))
    store.send(.todos(.element(id: b, action: .checkBoxToggled))) { $0.todos[id: self.b]?.isComplete = true }
    // One timer, the second one: past the moment the first would have fired, nothing moves.
    store.expectInFlight([sortTimer])
    store.advance(by: .milliseconds(999))
    store.expectInFlight([sortTimer])
    store.advance(by: .milliseconds(1))
    store.receive(.sortCompletedTodos) {
      $0.todos = [
        self.threeRows[2], Todo.State(id: self.a, title: "Milk", isComplete: true),
        Todo.State(id: self.b, title: "Eggs", isComplete: true),
      ]
    }
    #expect(store.elapsed == .milliseconds(1500))
  }

  @Test func uncheckingTheRowWithinTheSecondCancelsTheMove() {
    let store = makeStore(threeRows)
    store.send(.todos(.element(id: a, action: .checkBoxToggled))) { $0.todos[id: self.a]?.isComplete = true }
    store.advance(by: .milliseconds(500))
    store.send(.todos(.element(id: a, action: .checkBoxToggled))) { $0.todos[id: self.a]?.isComplete = false }
    store.expectInFlight([])
    // No timer is left to fire: the rows never move.
    store.advance(by: .seconds(5))
    #expect(store.state.todos == IdentifiedArrayOf(uniqueElements: threeRows))
  }

  /// Unchecking one row while another checked row still waits to move down
  /// restarts the wait instead of cancelling it.
  @Test func uncheckingOneRowKeepsAnotherCheckedRowsMove() {
    let store = makeStore(threeRows)
    store.send(.todos(.element(id: a, action: .checkBoxToggled))) { $0.todos[id: self.a]?.isComplete = true }
    store.send(.todos(.element(id: b, action: .checkBoxToggled))) { $0.todos[id: self.b]?.isComplete = true }
    store.advance(by: .milliseconds(500))
    store.send(.todos(.element(id: b, action: .checkBoxToggled))) { $0.todos[id: self.b]?.isComplete = false }
    store.expectInFlight([sortTimer])
    store.advance(by: .seconds(1))
    store.receive(.sortCompletedTodos) {
      $0.todos = [self.threeRows[1], self.threeRows[2], Todo.State(id: self.a, title: "Milk", isComplete: true)]
    }
    #expect(store.elapsed == .milliseconds(1500))
  }

  /// A checked row already below every active one has nowhere to move: no timer.
  @Test func checkingTheLastRowStartsNoTimer() {
    let store = makeStore(threeRows)
    store.send(.todos(.element(id: c, action: .checkBoxToggled))) { $0.todos[id: self.c]?.isComplete = true }
    store.expectInFlight([])
  }

  /// A timer that cannot fire (its worker died) moves nothing; the next check starts another.
  @Test func aTimerThatCannotFireLeavesTheRowsInPlace() {
    let store = makeStore(threeRows)
    store.send(.todos(.element(id: a, action: .checkBoxToggled))) { $0.todos[id: self.a]?.isComplete = true }
    store.respond(to: sortTimer, with: .failure(EffectFailure(.workerUnavailable, "the timer worker died")))
    store.expectInFlight([])
    store.send(.todos(.element(id: b, action: .checkBoxToggled))) { $0.todos[id: self.b]?.isComplete = true }
    store.advance(by: .seconds(1))
    store.receive(.sortCompletedTodos) {
      $0.todos = [
        self.threeRows[2], Todo.State(id: self.a, title: "Milk", isComplete: true),
        Todo.State(id: self.b, title: "Eggs", isComplete: true),
      ]
    }
  }

  @Test func aRowIsDeletedByID() {
    let store = makeStore(threeRows)
    store.send(.delete(id: b)) { $0.todos = [self.threeRows[0], self.threeRows[2]] }
    store.send(.delete(id: a)) { $0.todos = [self.threeRows[2]] }
  }

  /// A delete for a row that is not there is reported and dropped, so a
  /// client that sent it hears why.
  @Test func deletingARowThatIsNotThereIsDropped() {
    let store = makeStore(threeRows)
    let missing = UUID(counting: 9)
    withKnownIssue("todos has no element with id \(missing)") {
      store.send(.delete(id: missing))
    }
    #expect(store.state.todos == IdentifiedArrayOf(uniqueElements: threeRows))
  }

  /// Deleting the checked row that waited to move down: the timer still
  /// fires, and the sort finds nothing to move.
  @Test func deletingTheCheckedRowLeavesAHarmlessSort() {
    let store = makeStore(threeRows)
    store.send(.todos(.element(id: a, action: .checkBoxToggled))) { $0.todos[id: self.a]?.isComplete = true }
    store.send(.delete(id: a)) { $0.todos = [self.threeRows[1], self.threeRows[2]] }
    store.advance(by: .seconds(1))
    store.receive(.sortCompletedTodos)
  }

  @Test func theFilterShowsAllActiveOrCompletedRows() {
    let done = Todo.State(id: b, title: "Eggs", isComplete: true)
    let store = makeStore([threeRows[0], done, threeRows[2]])
    #expect(store.state.filteredTodos.ids == [a, b, c])
    store.send(.filterPicked(.active)) { $0.filter = .active }
    #expect(store.state.filteredTodos.ids == [a, c])
    store.send(.filterPicked(.completed)) { $0.filter = .completed }
    #expect(store.state.filteredTodos.ids == [b])
    store.send(.filterPicked(.all)) { $0.filter = .all }
    #expect(store.state.filteredTodos.ids == [a, b, c])
  }

  /// A row added while only completed rows are shown is in the list, not in the filtered rows.
  @Test func aNewRowIsActive() {
    let store = makeStore(filter: .completed)
    store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: self.a)] }
    #expect(store.state.filteredTodos.isEmpty)
  }

  @Test func clearCompletedRemovesEveryCompletedRow() {
    let done = [
      Todo.State(id: b, title: "Eggs", isComplete: true), Todo.State(id: c, title: "Hand soap", isComplete: true),
    ]
    let store = makeStore([threeRows[0]] + done)
    store.send(.clearCompletedButtonTapped) { $0.todos = [self.threeRows[0]] }
    store.send(.clearCompletedButtonTapped)
  }

  /// After a restart with a checked row still waiting to move down, the wait starts again.
  @Test func recoveryRestartsAPendingSort() {
    let done = Todo.State(id: a, title: "Milk", isComplete: true)
    let store = makeStore([done, threeRows[1], threeRows[2]])
    #expect(store.state.isAwaitingEffect)
    // What the daemon asks the root for after recovering (RecoverableFeature).
    #expect(Todos().recoveryActions(for: store.state) == [.recovered])
    store.send(.recovered)
    store.expectInFlight([sortTimer])
    store.advance(by: .seconds(1))
    store.receive(.sortCompletedTodos) { $0.todos = [self.threeRows[1], self.threeRows[2], done] }
    #expect(!store.state.isAwaitingEffect)
  }

  @Test func recoveryWithNothingToSortDoesNothing() {
    let done = Todo.State(id: c, title: "Hand soap", isComplete: true)
    let store = makeStore([threeRows[0], threeRows[1], done])
    #expect(!store.state.isAwaitingEffect)
    #expect(Todos().recoveryActions(for: store.state) == [])
    store.send(.recovered)
    store.expectInFlight([])
  }
}
