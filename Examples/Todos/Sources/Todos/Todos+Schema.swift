import ActionLanguage
import ComposableCore
import FoundationEssentials

extension Todos.Action: DescribedAction {
  /// `addTodoButtonTapped`, `filterPicked active`, `delete <id>`, `todos[<id>].checkBoxToggled`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("addTodoButtonTapped", "Adds an empty row on top"),
      ActionCase("clearCompletedButtonTapped", "Removes every completed row"),
      ActionCase("exportButtonTapped", "Writes the list to todos.md through the export worker"),
      ActionCase(
        "exportFinished", "The export worker wrote the file", sentBy: .exportWorker,
        .unlabeled("receipt", Export.Receipt.self)),
      ActionCase(
        "exportFailed", "The export failed", sentBy: .exportWorker, .unlabeled("failure", EffectFailure.self)),
      ActionCase("delete", "Removes the row with this id", .labeled("id", UUID.self)),
      ActionCase(
        "filterPicked", "Shows all rows, the active ones or the completed ones", .unlabeled("filter", Filter.self)),
      ActionCase("sortCompletedTodos", "Moves completed rows below the active ones", sentBy: .timerEffect),
      ActionCase(
        "todos", "An action of one row", .unlabeled("row", IdentifiedAction<Todo.State.ID, Todo.Action>.self)),
      ActionCase("recovered", "Restarts the timer of a pending sort", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .addTodoButtonTapped: "addTodoButtonTapped"
    case .clearCompletedButtonTapped: "clearCompletedButtonTapped"
    case .exportButtonTapped: "exportButtonTapped"
    case .exportFinished: "exportFinished"
    case .exportFailed: "exportFailed"
    case .delete: "delete"
    case .filterPicked: "filterPicked"
    case .sortCompletedTodos: "sortCompletedTodos"
    case .todos: "todos"
    case .recovered: "recovered"
    }
  }
}

extension Filter: DescribedValue {}

extension InternalSender {
  /// The app's own `export` worker (``Export``).
  public static let exportWorker = InternalSender("the export worker")
}

extension Export.Receipt: DescribedValue {
  /// Only the export worker produces receipts, so the action carrying one is
  /// internal; for debugging it takes one as JSON, e.g.
  /// `'{"path":"/tmp/todos.md","count":2,"bytes":22}'`.
  public static var valueSchema: ValueSchema { .json(Export.Receipt.self, sample: schemaSample) }

  /// A valid receipt, for examples and the schema's tests.
  static let schemaSample = Export.Receipt(path: "/var/lib/todosd/workers/export/todos.md", count: 2, bytes: 22)
}
