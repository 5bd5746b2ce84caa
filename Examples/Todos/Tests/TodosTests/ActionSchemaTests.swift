import ActionLanguage
import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import Testing

@testable import Todos

/// The Todos contract (``assertContract``), what `tcactl actions` lists,
/// and real actions rendered as command lines that parse back to themselves.
@Suite struct ActionSchemaTests {
  let schema = Todos.Action.actionSchema

  /// Every path `tcactl actions` lists, in order, with who sends the internal ones.
  @Test func listsEveryPathForTcactlActions() {
    let listed = schema.allPaths.map { entry in entry.usage + (entry.sentBy.map { " (sent by \($0))" } ?? "") }
    #expect(
      listed == [
        "addTodoButtonTapped",
        "clearCompletedButtonTapped",
        "exportButtonTapped",
        "exportFinished <Export.Receipt (JSON)> (sent by the export worker)",
        "exportFailed <EffectFailure (JSON)> (sent by the export worker)",
        "delete <id: UUID>",
        "filterPicked <all|active|completed>",
        "sortCompletedTodos (sent by the timer effect)",
        "todos[<id: UUID>].binding.title <value: String>",
        "todos[<id: UUID>].checkBoxToggled",
        "recovered (sent by the daemon after a restart)",
      ])
    #expect(schema.clientPaths.count == 7)
  }

  /// The list's contract with its clients: every case round-trips, its
  /// path and JSON forms agree, malformed ones are refused, the sort, the
  /// export's answers and the recovery are internal, and the state survives
  /// its JSON.
  @Test func contract() {
    let rows: IdentifiedArrayOf<Todo.State> = [
      Todo.State(id: Self.id, title: "Buy milk"), Todo.State(id: UUID(counting: 1), isComplete: true),
    ]
    assertContract(
      of: Todos.self,
      states: [
        Todos.State(), Todos.State(filter: .completed, todos: rows, export: .exporting),
        Todos.State(export: .exported(Export.Receipt(path: "/tmp/todos.md", count: 2, bytes: 22))),
        Todos.State(export: .failed("The export worker is not running.")),
      ])
  }

  static let id = UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301")!

  static let actions: [(Todos.Action, String)] = [
    (.addTodoButtonTapped, "addTodoButtonTapped"),
    (.clearCompletedButtonTapped, "clearCompletedButtonTapped"),
    (.delete(id: id), "delete 3F2504E0-4F89-41D3-9A0C-0305E82C3301"),
    (.filterPicked(.active), "filterPicked active"),
    (.filterPicked(.completed), "filterPicked completed"),
    (.sortCompletedTodos, "sortCompletedTodos"),
    (
      .todos(.element(id: id, action: .binding(.set(\.title, "Buy milk")))),
      "todos[3F2504E0-4F89-41D3-9A0C-0305E82C3301].binding.title 'Buy milk'"
    ),
    (
      .todos(.element(id: id, action: .checkBoxToggled)),
      "todos[3F2504E0-4F89-41D3-9A0C-0305E82C3301].checkBoxToggled"
    ),
    (.recovered, "recovered"),
  ]

  @Test(arguments: actions)
  func describesARealActionAndParsesItBack(action: Todos.Action, line: String) throws {
    #expect(ActionPath.describe(action) == line)
    let json = try CanonicalJSON.value(of: action)
    let command = try #require(ActionPath.command(for: json, schema: schema))
    #expect(try ActionPath.parse(path: command.path, arguments: command.arguments, schema: schema) == json)
    #expect(try ActionPath.parse(path: command.path, arguments: command.arguments, as: Todos.Action.self) == action)
  }

  /// What a person types, with the shell's quoting already removed.
  @Test func parsesWhatAPersonTypes() throws {
    #expect(
      try ActionPath.parse(path: "todos[\(Self.id)].binding.title", arguments: ["Buy milk"], as: Todos.Action.self)
        == .todos(.element(id: Self.id, action: .binding(.set(\.title, "Buy milk")))))
    #expect(
      try ActionPath.parse(path: "todos[\(Self.id)].binding", arguments: ["title", "Eggs"], as: Todos.Action.self)
        == .todos(.element(id: Self.id, action: .binding(.set(\.title, "Eggs")))))
    #expect(
      try ActionPath.parse(path: "filterPicked", arguments: ["all"], as: Todos.Action.self) == .filterPicked(.all))
  }

  static let mistakes: [(String, [String], String)] = [
    ("addTodo", [], "unknown action 'addTodo': did you mean addTodoButtonTapped?"),
    (
      "filterPicked", ["done"], "filterPicked: 'done' is not a Filter: expected one of: all, active, completed"
    ),
    ("todos[7].checkBoxToggled", [], "todos[7]: '7' is not a UUID (id)"),
    (
      "todos.checkBoxToggled", [],
      "todos is a collection; name an element by id, as in todos[<id: UUID>].<binding|checkBoxToggled>"
    ),
    ("delete", [], "delete takes 1 argument (id: UUID), got 0"),
  ]

  @Test(arguments: mistakes)
  func explainsAMistake(path: String, arguments: [String], message: String) {
    do {
      _ = try ActionPath.parse(path: path, arguments: arguments, schema: schema)
      Issue.record("\(path) \(arguments) parsed")
    } catch {
      #expect(error.description == message)
    }
  }
}
