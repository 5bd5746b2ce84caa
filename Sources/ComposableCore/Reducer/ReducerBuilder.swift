/// Builds a reducer from reducers listed one per line, run top to bottom.
///
/// Every reducer in the block sees every action, in order, and the effects they
/// return are merged.
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  public static func buildExpression<R: Reducer<State, Action>>(_ reducer: R) -> R { reducer }

  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R { first }

  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> CombinedReducers<R0, R1> {
    CombinedReducers(first: accumulated, second: next)
  }

  public static func buildOptional<R: Reducer<State, Action>>(_ reducer: R?) -> OptionalReducer<R> {
    OptionalReducer(wrapped: reducer)
  }

  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first reducer: R0
  ) -> EitherReducer<R0, R1> {
    .first(reducer)
  }

  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second reducer: R1
  ) -> EitherReducer<R0, R1> {
    .second(reducer)
  }

  public static func buildFinalResult<R: Reducer<State, Action>>(_ reducer: R) -> R { reducer }
}

/// A reducer that does nothing: the body of an empty block.
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  public init() {}
  @inlinable public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// Two reducers run one after the other; their effects are merged.
///
/// The composing reducers' `reduce` methods are `@inlinable`, here and in
/// ``Scope`` and ``Reduce``, so that a feature's body is specialized for its
/// state and action types in the features' module instead of looking up
/// generic metadata for every action.
public struct CombinedReducers<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  @usableFromInline let first: R0
  @usableFromInline let second: R1

  @inlinable public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    let secondEffect = second.reduce(into: &state, action: action)
    return firstEffect.merge(with: secondEffect)
  }

  public func recoveryActions(for state: R0.State) -> [R0.Action] {
    first.recoveryActions(for: state) + second.recoveryActions(for: state)
  }
}

/// A reducer included only when a condition held while the body was built.
public struct OptionalReducer<Wrapped: Reducer>: Reducer {
  @usableFromInline let wrapped: Wrapped?

  @inlinable public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }

  public func recoveryActions(for state: Wrapped.State) -> [Wrapped.Action] {
    wrapped?.recoveryActions(for: state) ?? []
  }
}

/// One of two reducers, chosen while the body was built.
public enum EitherReducer<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  case first(R0)
  case second(R1)

  @inlinable public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    switch self {
    case .first(let reducer): reducer.reduce(into: &state, action: action)
    case .second(let reducer): reducer.reduce(into: &state, action: action)
    }
  }

  public func recoveryActions(for state: R0.State) -> [R0.Action] {
    switch self {
    case .first(let reducer): reducer.recoveryActions(for: state)
    case .second(let reducer): reducer.recoveryActions(for: state)
    }
  }
}

/// Groups reducers so that an operator (like `ifLet`) applies to all of them.
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers

  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }

  public func recoveryActions(for state: State) -> [Action] {
    reducers.recoveryActions(for: state)
  }
}
