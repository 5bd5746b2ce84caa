/// An action that carries bindings for its feature's form fields.
public protocol BindableAction: Sendable {
  associatedtype State: BindableState
  /// Wraps a binding in the feature's action.
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding, if this action is one.
  var binding: BindingAction<State>? { get }
}

/// Applies binding actions to the state. Put it first in a feature's body so the
/// feature's own reducer sees the new value.
///
/// A binding to an unknown field, or with a value of the wrong type, is
/// dropped (``reportDroppedAction(_:action:location:)``) and leaves the state
/// unchanged.
public struct BindingReducer<State: BindableState, Action: BindableAction>: Reducer where Action.State == State {
  let location: SourceLocation

  public init(fileID: String = #fileID, line: Int = #line) {
    location = SourceLocation(fileID: fileID, line: line)
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let binding = action.binding else { return .none }
    do {
      try state.apply(binding)
    } catch {
      reportDroppedAction("\(error)", action: action, location: location)
    }
    return .none
  }
}
