/// A type that evolves a feature's state in response to actions and describes the
/// effects those actions start.
///
/// A reducer is either written directly, by implementing
/// ``reduce(into:action:)``, or composed from other reducers in ``body``:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable, Sendable, Codable { var count = 0 }
///   enum Action: Equatable, Sendable, Codable { case increment }
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// Reducers are pure: all I/O is returned as ``Effect`` values, which the
/// ``Store`` hands to an ``EffectExecutor`` (worker processes in the daemon, an
/// in-memory fake in tests).
public protocol Reducer<State, Action> {
  /// The state the reducer evolves.
  associatedtype State
  /// The actions the reducer handles. Actions cross threads and processes.
  associatedtype Action: Sendable
  /// The composed reducer of a reducer written with ``body``; `Never` otherwise.
  associatedtype Body

  /// Evolves `state` for `action` and returns the effects to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is composed of, run in order for every action.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// A function that reduces as this reducer does, for a ``Store`` to keep
  /// and call for every action. For a reducer written with ``body``, the body
  /// is built once, here, rather than again for every action (building and
  /// copying the App's body was a sixth of the daemon's work per action). A
  /// body must therefore depend only on the reducer's own properties, never on
  /// dependencies or other outside state; dependencies belong inside the
  /// reducers it composes, which read them as they reduce.
  func makeReduce() -> (inout State, Action) -> Effect<Action>

  /// The actions that tell the features in `state` that were waiting on an
  /// effect that it is gone (the daemon restarted after a crash), each
  /// embedded in this reducer's action, in the order the reducers run.
  ///
  /// A feature answers by adopting ``RecoverableFeature``; the composing
  /// reducers (``Scope``, `ifLet`, `forEach`, a body's list, …) ask the
  /// reducers they compose and embed their answers, so the root reducer
  /// answers for the whole app. Any other reducer answers none.
  func recoveryActions(for state: State) -> [Action]
}

extension Reducer {
  @inlinable public func makeReduce() -> (inout State, Action) -> Effect<Action> {
    { state, action in self.reduce(into: &state, action: action) }
  }
}

extension Reducer {
  /// A reducer that is neither a ``RecoverableFeature`` nor composed of
  /// others has nothing to recover.
  public func recoveryActions(for state: State) -> [Action] { [] }
}

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body.
  public var body: Body {
    // invariant: only code that asks a reducer implementing reduce(into:action:) for its body reaches this; the core
    // never does
    fatalError("'\(Self.self)' has no body: it implements reduce(into:action:) directly.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// A reducer written with ``body`` reduces by running its body.
  @inlinable public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }

  /// A reducer written with ``body`` answers what its body answers.
  public func recoveryActions(for state: State) -> [Action] {
    body.recoveryActions(for: state)
  }

  @inlinable public func makeReduce() -> (inout State, Action) -> Effect<Action> {
    let body = self.body
    return { state, action in body.reduce(into: &state, action: action) }
  }
}

/// The reducer type of a feature, as in `ReducerOf<Counter>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
