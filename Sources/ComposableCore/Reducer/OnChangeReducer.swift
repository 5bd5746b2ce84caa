extension Reducer {
  /// Runs `reducer` after this one whenever an action changed the value
  /// `value` reads from the state.
  ///
  /// ```swift
  /// .onChange(of: \.query) { old, new in
  ///   Reduce { state, _ in new.isEmpty ? .send(.reset) : .none }
  /// }
  /// ```
  public func onChange<Value: Equatable, Changed: Reducer<State, Action>>(
    of value: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) -> Changed
  ) -> OnChangeReducer<Self, Value, Changed> {
    OnChangeReducer(base: self, value: value, reducer: reducer)
  }
}

/// The reducer built by ``Reducer/onChange(of:_:)``.
public struct OnChangeReducer<Base: Reducer, Value: Equatable, Changed: Reducer<Base.State, Base.Action>>: Reducer {
  let base: Base
  let value: (Base.State) -> Value
  let reducer: (Value, Value) -> Changed

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = value(state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = value(state)
    guard oldValue != newValue else { return effect }
    return effect.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }

  /// The base's: the reducer run on a change exists only for that change.
  public func recoveryActions(for state: Base.State) -> [Base.Action] {
    base.recoveryActions(for: state)
  }
}
