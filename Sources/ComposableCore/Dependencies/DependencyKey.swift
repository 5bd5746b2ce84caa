/// Declares a dependency: a pure, synchronous value (a UUID source, the current
/// date, random numbers, configuration) with a live value and, optionally, a
/// value that tests may use without overriding it.
///
/// I/O is never a dependency here: it is an ``EffectRequest`` carried out by a
/// worker. Dependencies stay in the process and keep reducers deterministic
/// under test.
public protocol DependencyKey {
  associatedtype Value: Sendable
  /// The value used when running for real.
  static var liveValue: Value { get }
  /// The value tests get without overriding, or `nil` when a test must override
  /// the dependency before reaching it (the default).
  static var testValue: Value? { get }
}

extension DependencyKey {
  public static var testValue: Value? { nil }
}
