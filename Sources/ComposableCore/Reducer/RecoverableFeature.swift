/// A feature that knows what to do when an effect it was waiting on is lost.
///
/// A daemon that restarts after a crash recovers the state from its journal,
/// but not the effects that were in flight: a timer, an HTTP request, a
/// storage write. A feature left waiting on one would wait forever, so it
/// names an action that restarts what is safe to repeat (a fetch, a search, a
/// die's timer) and fails what is not (an order, which sent again could be
/// placed twice):
///
/// ```swift
/// extension Counter: RecoverableFeature {
///   func recoveryAction(for state: State) -> Action? {
///     state.isAwaitingEffect ? .recovered : nil
///   }
/// }
/// ```
///
/// The root reducer's ``Reducer/recoveryActions(for:)`` gathers every
/// feature's answer through the reducers that compose it, embedded in the
/// root action, and the daemon reduces each of them once after recovering.
public protocol RecoverableFeature: Reducer {
  /// The action that tells this feature, in `state`, that the effect it was
  /// waiting on is gone; nil when it waits on none.
  func recoveryAction(for state: State) -> Action?
}

extension RecoverableFeature {
  /// The feature's own recovery action, if it has one.
  public func recoveryActions(for state: State) -> [Action] {
    recoveryAction(for: state).map { [$0] } ?? []
  }
}

extension RecoverableFeature where Body: Reducer, Body.State == State, Body.Action == Action {
  /// The feature's own recovery action, then those of the reducers its body
  /// composes.
  public func recoveryActions(for state: State) -> [Action] {
    (recoveryAction(for: state).map { [$0] } ?? []) + body.recoveryActions(for: state)
  }
}
