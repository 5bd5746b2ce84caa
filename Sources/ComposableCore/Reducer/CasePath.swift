/// How a parent action embeds a child action, and how to get it back out.
///
/// Enum cases cannot be referred to as key paths without macros, so a case path
/// pairs the case constructor with an extraction:
///
/// ```swift
/// enum Action {
///   case counter(Counter.Action)
///   var counter: Counter.Action? { if case let .counter(a) = self { a } else { nil } }
/// }
/// Scope(state: \.counter, action: CasePath(Action.counter, \.counter)) { Counter() }
/// ```
public struct CasePath<Root, Value>: Sendable {
  /// Wraps a child value in the parent case.
  public let embed: @Sendable (Value) -> Root
  /// Returns the child value if `root` is this case, `nil` otherwise.
  public let extract: @Sendable (Root) -> Value?

  public init(_ embed: @escaping @Sendable (Value) -> Root, _ extract: @escaping @Sendable (Root) -> Value?) {
    self.embed = embed
    self.extract = extract
  }
}
