/// Who alone sends an internal action case: an effect answering a request, or
/// the daemon itself, never a client.
///
/// A case marked with a sender (``ActionCase/sentBy``) answers an effect: a
/// response, a failure, a timer landing, a recovery after a restart. A client
/// that sent one would make the state claim what did not happen (an emptied
/// history that storage still holds, an order that was never placed), so the
/// daemon refuses them from clients and lists them only when asked. A case
/// inside an internal one is internal too (`dice.internal.…`).
///
/// ```swift
/// .init(.productsResponse([]), "The products arrived", sentBy: .httpEffect)
/// ```
public struct InternalSender: Hashable, Sendable, CustomStringConvertible {
  /// Who sends the action, written to follow "sent by": `the HTTP effect`.
  public let description: String

  /// A sender described as `description`, e.g. "the dice's roll as it starts".
  public init(_ description: String) {
    self.description = description
  }

  /// The answer to an HTTP request (network worker).
  public static let httpEffect = InternalSender("the HTTP effect")
  /// The answer to a storage request (storage worker).
  public static let storageEffect = InternalSender("the storage effect")
  /// A timer, delay or debounce firing (timer worker).
  public static let timerEffect = InternalSender("the timer effect")
  /// What storedaemon sends after a restart to the features whose effects were lost.
  public static let recovery = InternalSender("the daemon after a restart")
}
