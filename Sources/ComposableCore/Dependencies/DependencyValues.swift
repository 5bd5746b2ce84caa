/// The dependencies in effect while a reducer runs.
///
/// The ``Store`` sets them for every action; ``withDependencies(_:operation:)``
/// and ``Reducer/dependency(_:_:)`` override them for a scope. In the test
/// context a dependency that a test did not override and whose key has no
/// ``DependencyKey/testValue`` is reported, naming the dependency, and its live
/// value is used so that the test fails rather than crashes.
public struct DependencyValues: Sendable {
  /// Whether live values may be used without an override.
  public enum Context: Sendable { case live, test }

  public var context: Context
  private var overrides: [ObjectIdentifier: any Sendable] = [:]

  public init(context: Context = .live) {
    self.context = context
  }

  /// The dependencies of the current reducer run.
  @TaskLocal public static var current = DependencyValues()

  /// The value for `key`. Define one computed property per dependency:
  ///
  /// ```swift
  /// extension DependencyValues {
  ///   public var uuid: UUIDGenerator {
  ///     get { self[UUIDGeneratorKey.self] }
  ///     set { self[UUIDGeneratorKey.self] = newValue }
  ///   }
  /// }
  /// ```
  public subscript<Key: DependencyKey>(key: Key.Type, name: String = #function) -> Key.Value {
    get {
      if let value = overrides[ObjectIdentifier(key)] as? Key.Value { return value }
      switch context {
      case .live:
        return Key.liveValue
      case .test:
        if let value = Key.testValue { return value }
        reportIssue(
          "Unimplemented dependency '\(name)' (\(Key.Value.self)) was used in a test. "
            + "Override it, e.g. TestStore(...) { $0.\(name) = ... }.")
        return Key.liveValue
      }
    }
    set {
      overrides[ObjectIdentifier(key)] = newValue
    }
  }
}

/// Runs `operation` with dependencies changed by `update`.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void, operation: () throws -> Result
) rethrows -> Result {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Reads a dependency of the current reducer run.
///
/// ```swift
/// struct Dice: Reducer {
///   @Dependency(\.randomNumbers) var randomNumbers
/// }
/// ```
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  let keyPath: KeyPath<DependencyValues, Value> & Sendable

  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}

extension Reducer {
  /// Overrides a dependency for this reducer and everything it composes.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> DependencyOverrideReducer<Self> {
    DependencyOverrideReducer(base: self) { $0[keyPath: keyPath] = value }
  }
}

/// The reducer built by ``Reducer/dependency(_:_:)``.
public struct DependencyOverrideReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) { base.reduce(into: &state, action: action) }
  }

  public func recoveryActions(for state: Base.State) -> [Base.Action] {
    base.recoveryActions(for: state)
  }
}
