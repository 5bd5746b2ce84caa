import ActionLanguage
import ComposableCore
import FoundationEssentials

extension Todos.Action: DescribedAction {
  /// `addTodoButtonTapped`, `filterPicked active`, `delete <id>`, `todos[<id>].checkBoxToggled`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("addTodoButtonTapped", "Adds an empty row on top"),
      ActionCase("clearCompletedButtonTapped", "Removes every completed row"),
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
    case .delete: "delete"
    case .filterPicked: "filterPicked"
    case .sortCompletedTodos: "sortCompletedTodos"
    case .todos: "todos"
    case .recovered: "recovered"
    }
  }
}

extension Filter: DescribedValue {}
