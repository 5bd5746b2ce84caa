/// Work a reducer asks for after an action, described as data.
///
/// A closure cannot cross a process boundary, so every effect that performs I/O
/// is a request value (``EffectRequest``) plus a mapping of the worker's reply
/// back to an action; the mapping stays in the ``Store``, only the request and
/// the reply travel. Effects compose: ``merge(_:)`` runs effects side by side,
/// ``concatenate(_:)`` one after another, ``cancellable(id:cancelInFlight:)``
/// tags them so ``cancel(id:)`` can stop them.
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline indirect enum Operation: Sendable {
    case none
    case send(Action)
    case request(EffectRequest, ReplyMapping<Action>)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(id: CancelID, cancelInFlight: Bool, Effect)
    case cancel(id: CancelID)
    /// Runs an effect inside a child's scope, so its cancel ids are the child's.
    case scoped(ScopeComponent, Effect)
    /// Cancels everything running inside a child's scope (its state went away).
    case cancelScope(ScopeComponent)
  }

  @usableFromInline let operation: Operation

  @usableFromInline init(_ operation: Operation) { self.operation = operation }

  /// No work.
  public static var none: Self { Self(.none) }

  /// Sends `action` to the store right after the current action, before any
  /// action that arrives from outside.
  public static func send(_ action: Action) -> Self { Self(.send(action)) }

  /// Runs effects concurrently; completes when all have completed.
  public static func merge(_ effects: Effect...) -> Self { merge(effects) }

  /// Runs effects concurrently; completes when all have completed.
  public static func merge(_ effects: [Effect]) -> Self {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(.merge(effects))
    }
  }

  /// Runs effects one after another: each starts when the previous completed.
  public static func concatenate(_ effects: Effect...) -> Self { concatenate(effects) }

  /// Runs effects one after another: each starts when the previous completed.
  public static func concatenate(_ effects: [Effect]) -> Self {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(.concatenate(effects))
    }
  }

  /// Merges this effect with another.
  @inlinable public func merge(with other: Effect) -> Self {
    if isNone { return other }
    if other.isNone { return self }
    return .merge([self, other])
  }

  /// Runs `other` after this effect completes.
  public func concatenate(with other: Effect) -> Self { .concatenate([self, other]) }

  /// Whether this effect does nothing.
  @inlinable public var isNone: Bool {
    if case .none = operation { return true }
    return false
  }

  /// Transforms the actions this effect produces, as when a parent lifts a child's
  /// effect into its own action type.
  public func map<Parent: Sendable>(_ transform: @escaping @Sendable (Action) -> Parent) -> Effect<Parent> {
    switch operation {
    case .none: return .none
    case .send(let action): return .send(transform(action))
    case .request(let request, let mapping): return Effect<Parent>(.request(request, mapping.map(transform)))
    case .merge(let effects): return Effect<Parent>(.merge(effects.map { $0.map(transform) }))
    case .concatenate(let effects): return Effect<Parent>(.concatenate(effects.map { $0.map(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<Parent>(.cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform)))
    case .cancel(let id): return Effect<Parent>(.cancel(id: id))
    case .scoped(let component, let effect): return Effect<Parent>(.scoped(component, effect.map(transform)))
    case .cancelScope(let component): return Effect<Parent>(.cancelScope(component))
    }
  }
}
