/// Turns a worker's reply into the action a feature expects, or into no action.
///
/// The mapping is the half of an I/O effect that never leaves the daemon.
public struct ReplyMapping<Action: Sendable>: Sendable {
  let transform: @Sendable (EffectReply) -> Action?

  public init(_ transform: @escaping @Sendable (EffectReply) -> Action?) {
    self.transform = transform
  }

  /// The action for `reply`, or `nil` when the feature ignores it.
  public func callAsFunction(_ reply: EffectReply) -> Action? { transform(reply) }

  func map<Parent: Sendable>(_ embed: @escaping @Sendable (Action) -> Parent) -> ReplyMapping<Parent> {
    let transform = self.transform
    return ReplyMapping<Parent> { reply in transform(reply).map(embed) }
  }
}
