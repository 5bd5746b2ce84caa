extension Reducer {
  /// Runs this reducer with the ``Shared`` value at `copy` filled from
  /// `source`, where it lives, for the actions `isShared` picks (those that
  /// reach the feature holding the copy): before the reducer runs, `copy`
  /// is set to the value at `source`; after, if the reducer changed `copy`,
  /// the new value is written to `source`; then `copy` is emptied. Apply it
  /// to the reducer that runs the feature, at a level that sees both
  /// (`$name` is the feature's `@Shared var name`):
  ///
  /// ```swift
  /// Scope(state: \.settings, action: CasePath(Action.settings, \.settings)) { Settings() }
  ///   .sharing(\.profile.name, with: \.settings.$name, for: { $0.settings != nil })
  /// ```
  public func sharing<Value: Equatable>(
    _ source: WritableKeyPath<State, Value>, with copy: WritableKeyPath<State, Shared<Value>>,
    for isShared: @escaping (Action) -> Bool
  ) -> SharingReducer<Self, Value, Void> {
    sharing(
      key: { isShared($0) ? () : nil }, source: { state, _ in state[keyPath: source] },
      store: { state, _, value in state[keyPath: source] = value }, copy: { _ in SharedCopy(copy) })
  }

  /// Runs this reducer with the ``Shared`` value at `copy` filled from
  /// `source` for the feature to read, for the actions `isShared` picks:
  /// what the feature changes in its copy is not written back (the cart
  /// reads the product list's products).
  public func sharing<Value: Equatable>(
    reading source: KeyPath<State, Value>, with copy: WritableKeyPath<State, Shared<Value>>,
    for isShared: @escaping (Action) -> Bool
  ) -> SharingReducer<Self, Value, Void> {
    sharing(
      key: { isShared($0) ? () : nil }, source: { state, _ in state[keyPath: source] }, store: { _, _, _ in },
      copy: { _ in SharedCopy(copy) })
  }

  /// Runs this reducer with the ``Shared`` value of the feature an action is
  /// for filled from where it lives, for features that are many (the rows
  /// of a list, each sharing its line of a cart): `key` says which share an
  /// action touches (`nil`: none, and nothing is filled); `source` reads it
  /// and `store` writes it where it lives; `copy` reaches the feature's
  /// ``Shared`` for that key. Only that one copy is filled, so an action
  /// costs the same however many features there are.
  public func sharing<Value: Equatable, Key>(
    key: @escaping (Action) -> Key?, source: @escaping (State, Key) -> Value,
    store: @escaping (inout State, Key, Value) -> Void, copy: @escaping (Key) -> SharedCopy<State, Value>
  ) -> SharingReducer<Self, Value, Key> {
    SharingReducer(base: self, key: key, source: source, store: store, copy: copy)
  }
}

/// Where a feature keeps its copy of a shared value: how its parent reads
/// and sets the feature's ``Shared``. Reading gives `nil` when the feature is
/// not there (a row that is gone).
public struct SharedCopy<State, Value> {
  @usableFromInline let get: (State) -> Shared<Value>?
  @usableFromInline let set: (inout State, Shared<Value>) -> Void

  public init(get: @escaping (State) -> Shared<Value>?, set: @escaping (inout State, Shared<Value>) -> Void) {
    self.get = get
    self.set = set
  }

  /// The copy at `keyPath`, which is always there.
  public init(_ keyPath: WritableKeyPath<State, Shared<Value>>) {
    self.init(get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
  }
}

/// The reducer built by ``Reducer/sharing(_:with:for:)``,
/// ``Reducer/sharing(reading:with:for:)`` and ``Reducer/sharing(key:source:store:copy:)``.
///
/// Inlinable, as `Scope` is, so that it and the reducer it wraps are
/// specialized where the app composes them: every action passes through it,
/// and unspecialized it would cost lookups of generic metadata each time.
public struct SharingReducer<Base: Reducer, Value: Equatable, Key>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let key: (Base.Action) -> Key?
  @usableFromInline let source: (Base.State, Key) -> Value
  @usableFromInline let store: (inout Base.State, Key, Value) -> Void
  @usableFromInline let copy: (Key) -> SharedCopy<Base.State, Value>

  @usableFromInline init(
    base: Base, key: @escaping (Base.Action) -> Key?, source: @escaping (Base.State, Key) -> Value,
    store: @escaping (inout Base.State, Key, Value) -> Void, copy: @escaping (Key) -> SharedCopy<Base.State, Value>
  ) {
    self.base = base
    self.key = key
    self.source = source
    self.store = store
    self.copy = copy
  }

  @inlinable public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let key = key(action) else { return base.reduce(into: &state, action: action) }
    let copy = copy(key)
    let given = source(state, key)
    copy.set(&state, Shared(wrappedValue: given))
    let effect = base.reduce(into: &state, action: action)
    // The feature may be gone (a row removed): then nothing is written back.
    if let shared = copy.get(state), shared.isFilled {
      if shared.wrappedValue != given { store(&state, key, shared.wrappedValue) }
      copy.set(&state, Shared())
    }
    return effect
  }

  public func recoveryActions(for state: Base.State) -> [Base.Action] {
    base.recoveryActions(for: state)
  }
}
