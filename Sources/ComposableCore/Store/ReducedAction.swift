/// An action a ``Store`` reduced, as ``Store/reduceNext()`` returns it: the
/// version it produced, the action, and the origin it carries (that of the
/// action from outside it follows from). The store's ``Store/state`` is the
/// state after it until the next is reduced.
public struct ReducedAction<Action> {
  public let version: UInt64
  public let action: Action
  public let origin: Origin
}
