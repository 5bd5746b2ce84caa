import ActionLanguage
import ComposableCore

extension Todo.Action: DescribedAction {
  /// `todos[<id>].binding.title 'Buy milk'`, `todos[<id>].checkBoxToggled`.
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase("binding", "Sets the row's title", .unlabeled("binding", BindingAction<Todo.State>.self)),
      ActionCase("checkBoxToggled", "Checks the row, or unchecks it"),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .binding: "binding"
    case .checkBoxToggled: "checkBoxToggled"
    }
  }
}

extension Todo.State: DescribedBindableState {
  /// The title, as typed.
  public static var describedFields: [BindableFieldSchema<Self>] {
    [BindableFieldSchema(\.title, "Sets the title, as typed")]
  }
}
