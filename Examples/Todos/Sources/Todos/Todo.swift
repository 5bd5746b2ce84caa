import ActionLanguage
import ComposableCore
import FoundationEssentials

/// One row of the list: a title edited through a binding and a check box.
///
/// The row knows nothing of its neighbours: moving completed rows down and
/// deleting rows are the list's business (``Todos``), which sees every row
/// action after the row has reduced it.
public struct Todo: Reducer {
  public struct State: Equatable, Sendable, Codable, Identifiable {
    /// Drawn from the `uuid` dependency when the row is added.
    public let id: UUID
    /// What is to be done, as typed.
    public var title = ""
    /// Whether it is done.
    public var isComplete = false
  }

  public enum Action: Equatable, Sendable, Codable, BindableAction {
    /// Sets the title (the row's text field): `binding.title "Buy milk"`.
    case binding(BindingAction<State>)
    /// The check box was tapped: done becomes not done, and the other way round.
    case checkBoxToggled

    /// The binding, if this action is one (for ``BindingReducer``).
    public var binding: BindingAction<State>? {
      if case .binding(let action) = self { action } else { nil }
    }
  }

  public var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none

      case .checkBoxToggled:
        state.isComplete.toggle()
        return .none
      }
    }
  }
}

extension Todo.State: BindableState {
  /// Only the title is typed; completion changes through ``Todo/Action/checkBoxToggled``.
  public static var bindableFields: [BindableField<Self>] {
    [BindableField("title", \.title, "Sets the title, as typed")]
  }
}

extension Todo.Action: DescribedAction {
  /// `todos[<id>].binding.title 'Buy milk'`, `todos[<id>].checkBoxToggled`.
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.binding(.set(\.title, "Buy milk")), "Sets the row's title"),
    .init(.checkBoxToggled, "Checks the row, or unchecks it"),
  ]
}
