/// Identifies effects so they can be cancelled: any hashable, sendable value,
/// usually a case of a feature's own `CancelID` enum.
///
/// Cancel ids are scoped to the feature tree: the same id used by two siblings
/// (two elements of a collection, two scoped copies of one feature) names two
/// different sets of effects, because the runtime qualifies every id with the
/// path of scopes it was returned through.
public struct CancelID: Hashable, Sendable, CustomStringConvertible {
  let base: AnyHashableSendable

  public init(_ id: some Hashable & Sendable) {
    self.base = AnyHashableSendable(id)
  }

  public var description: String { "\(base)" }
}

/// One step in the path from the root reducer to a child: a named scope (a
/// `Scope`, `ifLet`) or an element of a collection (`forEach`).
public enum ScopeComponent: Hashable, Sendable, CustomStringConvertible {
  case named(String)
  case element(String, AnyHashableSendable)

  public var description: String {
    switch self {
    case .named(let name): name
    case .element(let name, let id): "\(name)[\(id)]"
    }
  }
}

/// A type-erased hashable and sendable value.
public struct AnyHashableSendable: Hashable, Sendable, CustomStringConvertible {
  public let base: any Hashable & Sendable

  public init(_ base: some Hashable & Sendable) {
    if let erased = base as? AnyHashableSendable {
      self = erased
    } else {
      self.base = base
    }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    AnyHashable(base).hash(into: &hasher)
  }

  public var description: String { String(describing: base) }
}
