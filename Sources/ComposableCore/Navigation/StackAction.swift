/// The actions of a navigation stack (``StackState``): an action of one
/// screen, popping screens, or pushing one. TCA's `StackAction`.
///
/// As JSON (docs/PROTOCOL.md): `{"element":{"id":1,"action":…}}`,
/// `{"popFrom":{"id":1}}`, `{"push":{"id":2,"state":…}}`; as a path,
/// `path[1].…` and `path.popFrom 1`.
public enum StackAction<State: Sendable, Action: Sendable>: Sendable {
  /// An action of the screen `id`. An action for a screen that is not on
  /// the stack (popped, or never pushed) is not applied.
  case element(id: StackElementID, action: Action)
  /// Pops the screen `id` and every screen above it (a back button, or a
  /// swipe back several screens at once), cancelling their effects.
  case popFrom(id: StackElementID)
  /// Pushes `state` as the screen `id`, which must be the stack's next id.
  case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Codable where State: Codable, Action: Codable {}
