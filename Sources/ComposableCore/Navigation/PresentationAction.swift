/// The actions of a presented child: its own actions while presented, and the
/// request to dismiss it.
public enum PresentationAction<Action: Sendable>: Sendable {
  /// An action of the presented child.
  case presented(Action)
  /// Dismisses the child: its state becomes `nil` and its effects are cancelled.
  case dismiss

  /// The child's action, if this is one.
  public var presented: Action? {
    if case .presented(let action) = self { return action }
    return nil
  }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Codable where Action: Codable {}
