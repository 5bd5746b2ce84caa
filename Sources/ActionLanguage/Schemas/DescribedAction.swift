import ComposableCore

/// An action enum that describes its own cases, so that a command line can
/// address them by name.
///
/// Without macros the cases of an enum cannot be listed at run time, so each
/// action type gives one value of every case in ``describedCases``, with a
/// sentence for people and, for a case only effects send, who sends it. The
/// case's name and its values' labels and types are read from the type's own
/// synthesized `Codable` conformance (``ActionSchema/init(deriving:)``), so
/// they cannot disagree with the enum. `tcactl send cart.addItem 3` is parsed
/// against the root's schema into the JSON that conformance decodes
/// (see ``ActionPath``).
///
/// A case that answers an effect (a response, a failure, a timer landing, a
/// recovery) names who sends it with `sentBy:`; clients may not send it
/// (``InternalSender``).
///
/// ```swift
/// extension Cart.Action: DescribedAction {
///   public static let describedCases: [DescribedCase<Self>] = [
///     .init(.addItem(1), "Adds one unit of a product"),
///     .init(.payButtonTapped, "Asks to confirm the total"),
///     .init(.orderPlaced(orderID: 7), "The store took the order", sentBy: .httpEffect),
///   ]
/// }
/// ```
///
/// A case left out of the list cannot be sent by path, and the conformance
/// check of ComposableTesting fails for any action the app's tests produce
/// whose case is not described.
public protocol DescribedAction: DescribedValue, Codable, Sendable, ActionPathDescribable {
  /// One value of every case, in declaration order, with what its encoding
  /// cannot say.
  static var describedCases: [DescribedCase<Self>] { get }
}

extension DescribedAction {
  /// The cases, read once from ``describedCases`` and kept.
  public static var actionSchema: ActionSchema { ActionSchemaReference.schema(of: Self.self) }

  /// An action nested in another is addressed by its cases: a further path step.
  public static var valueSchema: ValueSchema { .action(Self.self) }

  /// The command line of `action` (``ActionPath/describe(_:)``): what an
  /// alert's button publishes as the path it sends.
  public static func commandLine(of action: Self) -> String { ActionPath.describe(action) }
}
