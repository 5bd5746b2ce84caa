import ActionLanguage
import ComposableCore
import FoundationEssentials

/// TCA's classic Todos: a list of rows (``Todo``) to add, edit, check, delete,
/// filter and clear, where a checked row moves below the unchecked ones a
/// second after the last check.
///
/// New rows get their ids from the `uuid` dependency and go on top, as in
/// TCA's example. Checking or unchecking a row (re)starts a one-second timer
/// (``sortDelay``, through the timer worker) under one cancel id, so a burst
/// of checks moves the rows once, after the last of them; when that timer
/// fires, ``Action/sortCompletedTodos`` moves every completed row down,
/// keeping the order within the active and within the completed rows. A
/// toggle that leaves nothing to move (the row checked within the second
/// unchecked again, or the last row checked) cancels the pending timer
/// instead.
///
/// A sort is pending exactly while a completed row sits above an active one
/// (``State/isAwaitingEffect``): no other action puts a row out of place. If
/// storedaemon restarts meanwhile, the timer is gone and
/// ``Action/recovered`` starts it again.
public struct Todos: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// Which rows are shown.
    public var filter: Filter = .all
    /// Every row, newest first, completed ones moved down.
    public var todos: IdentifiedArrayOf<Todo.State> = []
    /// The last export of the list to a file (``Export``).
    public var export: Export.Status = .idle

    /// The rows ``filter`` shows, in list order.
    public var filteredTodos: IdentifiedArrayOf<Todo.State> {
      IdentifiedArrayOf(uniqueElements: todos.filter(filter.shows))
    }

    /// Whether no completed row sits above an active one: there is nothing to sort.
    public var completedTodosAreLast: Bool {
      guard let firstCompleted = todos.firstIndex(where: \.isComplete) else { return true }
      return todos[firstCompleted...].allSatisfy(\.isComplete)
    }

    /// Whether the list waits on an effect: a completed row waits to move
    /// down, or the export worker is writing the file. ``Action/recovered``
    /// restarts what this covers.
    public var isAwaitingEffect: Bool { !completedTodosAreLast || export == .exporting }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// Adds an empty row on top.
    case addTodoButtonTapped
    /// Removes every completed row.
    case clearCompletedButtonTapped
    /// Writes the list to a file (``Export/fileName``) through the app's own
    /// `export` worker.
    case exportButtonTapped
    /// The export worker wrote the file.
    case exportFinished(Export.Receipt)
    /// The export failed: the worker is down, was killed while writing, or
    /// could not write.
    case exportFailed(EffectFailure)
    /// Removes the row with this id (swiping it away).
    case delete(id: Todo.State.ID)
    /// Shows all rows, only the active ones, or only the completed ones.
    case filterPicked(Filter)
    /// The timer started by the last toggle fired: completed rows move below
    /// the active ones.
    case sortCompletedTodos
    /// An action of one row.
    case todos(IdentifiedAction<Todo.State.ID, Todo.Action>)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. A sort that was
    /// pending starts its timer again; otherwise nothing happens.
    case recovered

    var todos: IdentifiedAction<Todo.State.ID, Todo.Action>? {
      if case .todos(let action) = self { action } else { nil }
    }
  }

  /// How long a checked row stays in place before it moves down.
  public static let sortDelay: Duration = .seconds(1)

  enum CancelID { case todoCompletion }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: uuid()), at: 0)
        return .none

      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none

      case .exportButtonTapped:
        guard state.export != .exporting else { return .none }
        state.export = .exporting
        return exportList(state.todos)

      case .exportFinished(let receipt):
        state.export = .exported(receipt)
        return .none

      case .exportFailed(let failure):
        state.export = .failed(failure.description)
        return .none

      case .delete(let id):
        if state.todos.remove(id: id) == nil {
          reportDroppedAction("todos has no element with id \(id)", action: action, location: SourceLocation())
        }
        return .none

      case .filterPicked(let filter):
        state.filter = filter
        return .none

      case .sortCompletedTodos:
        // `sort` is stable: within the active and within the completed rows the order stays.
        state.todos.sort { !$0.isComplete && $1.isComplete }
        return .none

      case .todos(.element(_, .checkBoxToggled)):
        // The row has already toggled (a row reduces its action first).
        if state.completedTodosAreLast { return .cancel(id: CancelID.todoCompletion) }
        return sortLater()

      case .todos:
        return .none

      case .recovered:
        // Writing the same list again is safe: the worker replaces the file atomically.
        return .merge(
          state.completedTodosAreLast ? .none : sortLater(),
          state.export == .exporting ? exportList(state.todos) : .none)
      }
    }
    .forEach(\.todos, action: CasePath(Action.todos, \.todos)) {
      Todo()
    }
  }

  /// Asks the export worker to write `todos`, in list order.
  private func exportList(_ todos: IdentifiedArrayOf<Todo.State>) -> Effect<Action> {
    let request = Export.Request(
      file: Export.fileName, todos: todos.map { Export.Request.Row(title: $0.title, isComplete: $0.isComplete) })
    return .worker(Export.kind, request, decoding: Export.Receipt.self) { result in
      switch result {
      case .success(let receipt): .exportFinished(receipt)
      case .failure(let failure): .exportFailed(failure)
      }
    }
  }

  /// Sends ``Action/sortCompletedTodos`` after ``sortDelay``, replacing the
  /// timer in flight. A timer that cannot fire sends nothing: the rows stay
  /// where they are until the next toggle.
  private func sortLater() -> Effect<Action> {
    .debounce(id: CancelID.todoCompletion, for: Self.sortDelay, send: .sortCompletedTodos)
  }
}

extension Todos {
  /// An empty list, as the daemon first serves it.
  public static let emptyList = State()
}

extension Todos: RecoverableFeature {
  /// ``Action/recovered`` when a checked row still waits to move down.
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}

extension Todos.Action: DescribedAction {
  /// `addTodoButtonTapped`, `filterPicked active`, `delete <id>`, `todos[<id>].checkBoxToggled`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.addTodoButtonTapped, "Adds an empty row on top"),
    .init(.clearCompletedButtonTapped, "Removes every completed row"),
    .init(.exportButtonTapped, "Writes the list to todos.md through the export worker"),
    .init(
      .exportFinished(.init(path: "todos.md", count: 2, bytes: 22)), "The export worker wrote the file",
      sentBy: .exportWorker),
    .init(.exportFailed(.example), "The export failed", sentBy: .exportWorker),
    .init(.delete(id: UUID(counting: 0)), "Removes the row with this id"),
    .init(.filterPicked(.active), "Shows all rows, the active ones or the completed ones"),
    .init(.sortCompletedTodos, "Moves completed rows below the active ones", sentBy: .timerEffect),
    .init(.todos(.element(id: UUID(counting: 0), action: .checkBoxToggled)), "An action of one row"),
    .init(.recovered, "Restarts the timer of a pending sort", sentBy: .recovery),
  ]
}
