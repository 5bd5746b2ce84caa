/// Runs a child reducer on a part of the parent's state, for the child's actions.
///
/// ```swift
/// Scope(state: \.counter, action: CasePath(Action.counter, \.counter)) {
///   Counter()
/// }
/// ```
///
/// The child's effects are lifted into the parent's action type and run inside
/// the child's scope, so the child's cancel ids cannot reach its siblings.
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    return child.reduce(into: &state[keyPath: toChildState], action: childAction)
      .scoped(.named(String(describing: toChildState)))
      .map(toChildAction.embed)
  }

  public func recoveryActions(for state: ParentState) -> [ParentAction] {
    child.recoveryActions(for: state[keyPath: toChildState]).map(toChildAction.embed)
  }
}
