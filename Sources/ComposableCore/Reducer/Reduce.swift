/// A reducer written as a closure: the building block of every feature.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .increment:
///     state.count += 1
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action: Sendable>: Reducer {
  @usableFromInline let reduce: (inout State, Action) -> Effect<Action>
  /// What a wrapped reducer recovers; nothing for a closure.
  let recover: ((State) -> [Action])?

  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
    self.recover = nil
  }

  /// Wraps any reducer with the same state and action.
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self.reduce = reducer.reduce(into:action:)
    self.recover = reducer.recoveryActions(for:)
  }

  public func recoveryActions(for state: State) -> [Action] {
    recover?(state) ?? []
  }

  @inlinable public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}
