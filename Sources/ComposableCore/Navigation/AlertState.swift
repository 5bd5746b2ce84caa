/// An alert as state: its title, its message and its buttons, each naming
/// the action it sends (TCA's `AlertState`). A client draws it from the
/// state alone:
///
/// ```json
/// {"buttons":[{"action":"confirmPurchase","label":"Pay $100.59","path":"confirmPurchase","role":null},
///   {"action":"cancelPurchase","label":"Cancel","path":"cancelPurchase","role":"cancel"}],
///  "message":"Do you want to proceed with your purchase of $100.59?","title":"Confirm your purchase"}
/// ```
///
/// A feature presents one as TCA does: `alert: AlertState<Alert>?` in its
/// state, `case alert(PresentationAction<Alert>)` in its actions, and
/// `.ifLet(\.alert, action:)` in its body, which closes the alert after a
/// button's action and refuses an action no button of the alert sends.
public struct AlertState<Action>: Identifiable {
  public var title: String
  public var message: String?
  /// The buttons, in the order shown.
  public var buttons: [ButtonState<Action>]

  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>]) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// Its title: an alert with another title is another alert.
  public var id: String { title }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
extension AlertState: Encodable where Action: Encodable {}
extension AlertState: Decodable where Action: Decodable {}

/// A confirmation dialog (an action sheet) as state: a title, which a client
/// may show or not (``TitleVisibility``), an optional message, and the
/// buttons offered (TCA's `ConfirmationDialogState`). Presented and encoded
/// as ``AlertState`` is, with `"titleVisibility"` besides.
public struct ConfirmationDialogState<Action>: Identifiable {
  /// Whether the title is shown.
  public enum TitleVisibility: String, Hashable, Sendable, Codable {
    case automatic
    case visible
    case hidden
  }

  public var title: String
  public var titleVisibility: TitleVisibility
  public var message: String?
  /// The buttons, in the order shown.
  public var buttons: [ButtonState<Action>]

  public init(
    title: String, titleVisibility: TitleVisibility = .automatic, message: String? = nil,
    buttons: [ButtonState<Action>]
  ) {
    self.title = title
    self.titleVisibility = titleVisibility
    self.message = message
    self.buttons = buttons
  }

  /// Its title: a dialog with another title is another dialog.
  public var id: String { title }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Encodable where Action: Encodable {}
extension ConfirmationDialogState: Decodable where Action: Decodable {}

/// What a presented alert or dialog holds: buttons that send actions.
public protocol ButtonsState<ButtonAction> {
  associatedtype ButtonAction
  var buttons: [ButtonState<ButtonAction>] { get }
}

extension AlertState: ButtonsState {}
extension ConfirmationDialogState: ButtonsState {}
