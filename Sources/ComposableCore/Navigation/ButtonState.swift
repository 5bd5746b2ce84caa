/// One button of an alert or a confirmation dialog, as state: its label, its
/// role, and the action it sends (TCA's `ButtonState`).
///
/// As JSON: `{"action":…,"label":"Pay $100.59","path":"confirmPurchase","role":null}`.
/// `action` is the action's JSON and `path` its command line, both relative
/// to the presented alert's actions (docs/PROTOCOL.md, "Alerts"); `null`
/// for a button that only dismisses. `role` is `"cancel"`, `"destructive"`
/// or `null`.
public struct ButtonState<Action> {
  public var label: String
  public var role: ButtonRole?
  /// What tapping the button sends; `nil` for a button that only dismisses.
  public var action: Action?

  public init(role: ButtonRole? = nil, action: Action? = nil, label: String) {
    self.role = role
    self.action = action
    self.label = label
  }
}

/// What a button means beyond its action: cancelling, or destroying something.
public enum ButtonRole: String, Hashable, Sendable, Codable {
  case cancel
  case destructive
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

/// An action type whose values can be written as a command line's path and
/// words (`confirmPurchase`, `setQuantity 3`): described actions can
/// (ActionLanguage's `DescribedAction`), so a button names the path it sends.
public protocol ActionPathDescribable {
  /// The command line of `action`, relative to this type.
  static func commandLine(of action: Self) -> String
}

private enum ButtonCodingKeys: String, CodingKey { case label, role, action, path }

extension ButtonState: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ButtonCodingKeys.self)
    try container.encode(label, forKey: .label)
    try container.encode(role, forKey: .role)
    try container.encode(action, forKey: .action)
    let path: String? = if let action { Self.commandLine(of: action) } else { nil }
    try container.encode(path, forKey: .path)
  }

  /// The command line of `action`, where its type can write one.
  private static func commandLine(of action: Action) -> String? {
    guard let describable = Action.self as? any ActionPathDescribable.Type else { return nil }
    return commandLine(of: action, as: describable)
  }

  private static func commandLine<Describable: ActionPathDescribable>(
    of action: Action, as type: Describable.Type
  ) -> String? {
    (action as? Describable).map(Describable.commandLine(of:))
  }
}

extension ButtonState: Decodable where Action: Decodable {
  /// Reads the label, role and action; the path is derived from the action.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ButtonCodingKeys.self)
    self.init(
      role: try container.decodeIfPresent(ButtonRole.self, forKey: .role),
      action: try container.decodeIfPresent(Action.self, forKey: .action),
      label: try container.decode(String.self, forKey: .label))
  }
}
