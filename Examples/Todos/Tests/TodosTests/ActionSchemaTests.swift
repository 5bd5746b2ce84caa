import ActionLanguage
import ComposableCore
import FoundationEssentials
import JSON
import Testing

@testable import Todos

/// The Todos action schema against the real enums: every listed path builds
/// an action that decodes, every case is described, and real actions render
/// as command lines that parse back to themselves.
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
        "exportFinished <receipt: Export.Receipt (JSON)> (sent by the export worker)",
        "exportFailed <failure: EffectFailure (JSON)> (sent by the export worker)",
        "delete <id: UUID>",
        "filterPicked <filter: all|active|completed>",
        "sortCompletedTodos (sent by the timer effect)",
        "todos[<id: UUID>].binding.title <value: String>",
        "todos[<id: UUID>].checkBoxToggled",
        "recovered (sent by the daemon after a restart)",
      ])
    #expect(schema.clientPaths.count == 7)
  }

  @Test func everyPathDecodesAsATodosActionAndReencodesTheSame() throws {
    let samples = schema.samples
    #expect(samples.count == schema.allPaths.count)
    #expect(Set(samples.map(\.entry.path)).count == samples.count, "paths are unique")
    for sample in samples {
      // The daemon's decoder reads the sample, and writes it back the same
      // (enums as docs/PROTOCOL.md, "Enumerations as JSON", defines them).
      let action = try #require(
        try? JSONValueDecoder.decode(Todos.Action.self, from: sample.action),
        "\(sample.entry.path) is refused by the daemon: \(sample.action)")
      #expect(try JSONValue(encoding: action) == sample.action, "\(sample.entry.path)")
      // What Foundation's synthesized coding writes is read as the same action.
      let foundation = try JSONParser.parse(Array(JSONEncoder().encode(action)))
      #expect(try JSONValueDecoder.decode(Todos.Action.self, from: foundation) == action, "\(sample.entry.path)")
    }
  }

  /// Each described enum on its own: the sample of every case decodes to the
  /// case of that name, and every case has a sample.
  @Test func everyDescribedEnumMatchesItsCases() throws {
    var checked = Set<String>()
    var pending = [ActionSchemaReference(Todos.Action.self)]
    while let reference = pending.popLast() {
      guard checked.insert(reference.typeName).inserted else { continue }
      let schema = reference.schema
      let samples = schema.samples
      for actionCase in schema.cases {
        let sample = try #require(
          samples.first { Self.firstStep(of: $0.entry.path) == actionCase.name },
          "\(reference.typeName).\(actionCase.name) has no sample")
        #expect(try reference.decodedCaseName(of: sample.action) == actionCase.name, "\(reference.typeName)")
        for argument in actionCase.arguments {
          switch argument.value.kind {
          case .action(let nested): pending.append(nested)
          case .identified(_, let element): pending.append(element)
          default: break
          }
        }
      }
    }
    #expect(checked == ["Todos.Action", "Todo.Action"])
  }

  @Test func bindingFieldsAreTheBindableFields() {
    #expect(Todo.State.describedFields.map(\.name) == Todo.State.bindableFields.map(\.name))
  }

  @Test func everySampleRendersAsACommandThatParsesBack() throws {
    for sample in schema.samples {
      let command = try #require(ActionPath.command(for: sample.action, schema: schema), "\(sample.entry.path)")
      #expect(try ActionPath.parse(path: command.path, arguments: command.arguments, schema: schema) == sample.action)
    }
  }

  /// The daemon judges a sent action by its JSON: only the sort, the
  /// export's answers and the recovery are refused from clients.
  @Test func onlyTheSortTheExportsAnswersAndTheRecoveryAreInternal() {
    for sample in schema.samples {
      let sender = schema.internalSender(of: sample.action)
      #expect(sender?.description == sample.entry.sentBy, "\(sample.entry.path)")
      switch sample.entry.path {
      case "sortCompletedTodos": #expect(sender == .timerEffect)
      case "recovered": #expect(sender == .recovery)
      case let path where path.hasPrefix("exportFinished") || path.hasPrefix("exportFailed"):
        #expect(sender == .exportWorker, "\(path)")
      default: #expect(sender == nil, "\(sample.entry.path)")
      }
    }
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
    let json = try JSONValue(encoding: action)
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
      "filterPicked", ["done"], "filterPicked: 'done' is not a Filter (filter): expected one of: all, active, completed"
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

  private static func firstStep(of path: String) -> Substring {
    path.prefix { $0 != "." && $0 != "[" }
  }
}
