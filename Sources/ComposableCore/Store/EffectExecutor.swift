/// Tags an action sent from outside the store, and everything that follows from
/// it: the actions its effects send and the replies to its requests. The daemon
/// uses it to tell a client when the effects of its action have settled. Zero
/// means no tag.
public typealias Origin = UInt64

/// Carries out the I/O requests a ``Store``'s effects ask for.
///
/// The daemon implements it with worker processes, tests with an in-memory fake.
/// An executor answers through ``Store/deliver(_:to:)`` on the store's own
/// thread, never from inside ``start(_:id:)``.
public protocol EffectExecutor: AnyObject {
  /// Starts `request`. Replies arrive later through ``Store/deliver(_:to:)``.
  func start(_ request: EffectRequest, id: EffectID)
  /// Stops the request `id`. Replies that still arrive for it are dropped.
  func cancel(_ id: EffectID)
}

/// A request in flight, as shown by `tcactl status` and asserted by tests.
public struct InFlightRequest: Hashable, Sendable, CustomStringConvertible {
  public let id: EffectID
  public let request: EffectRequest
  /// The path of scopes from the root to the feature that asked for it.
  public let scope: [ScopeComponent]

  public var description: String {
    let path = scope.isEmpty ? "root" : scope.map(\.description).joined(separator: "/")
    return "#\(id) \(request) (from \(path))"
  }
}
