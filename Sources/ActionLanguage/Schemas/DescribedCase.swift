/// One case of an action enum, given by a value of it, with what its
/// encoding cannot say: a sentence for people and who alone may send it.
///
/// The case's name and its values' labels and types are read from the
/// value's own `Codable` conformance (``ActionSchema/init(deriving:)``), so
/// the enum stays the one place they are written:
///
/// ```swift
/// extension Cart.Action: DescribedAction {
///   public static let describedCases: [DescribedCase<Self>] = [
///     .init(.addItem(1), "Adds one unit of the catalog's product"),
///     .init(.payButtonTapped, "Asks to confirm paying the total"),
///     .init(.orderPlaced(orderID: 7), "The store accepted the order", sentBy: .httpEffect),
///   ]
/// }
/// ```
///
/// Any value of the case will do; the values it carries become the examples
/// `tcactl actions` and the `actions` message show for JSON payloads.
public struct DescribedCase<Action: Sendable>: Sendable {
  /// A value of the case.
  public let sample: Action
  /// One line for `tcactl actions`: what the action does.
  public let summary: String
  /// Who alone sends this case (and every case below it), or `nil` when a
  /// client may: see ``InternalSender``.
  public let sentBy: InternalSender?

  /// The case of `sample`, doing what `summary` says; `sentBy` marks a case
  /// that only an effect or the daemon sends.
  public init(_ sample: Action, _ summary: String, sentBy: InternalSender? = nil) {
    self.sample = sample
    self.summary = summary
    self.sentBy = sentBy
  }
}
