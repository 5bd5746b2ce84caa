import ComposableCore

/// An action enum that describes its own cases, so that a command line can
/// address them by name.
///
/// Without macros the cases of an enum cannot be listed at run time, so each
/// action type lists them in ``actionSchema``: names, associated values and a
/// summary, mirroring the enum exactly. `tcactl send cart.addItem 3` is parsed
/// against the root's schema into the JSON the synthesized `Codable`
/// conformance decodes (see ``ActionPath``).
///
/// ``actionCaseName`` is an exhaustive `switch` over the enum: adding a case
/// without describing it then fails to compile next to the schema, and tests
/// check that every described case decodes to the case of the same name.
///
/// A case that answers an effect (a response, a failure, a timer landing, a
/// recovery) names who sends it with `sentBy:`; clients may not send it
/// (``InternalSender``).
///
/// ```swift
/// extension Cart.Action: DescribedAction {
///   public static var actionSchema: ActionSchema {
///     ActionSchema(cases: [
///       ActionCase("addItem", "Adds one unit of a product", .unlabeled("productID", Int.self)),
///       ActionCase("payButtonTapped", "Asks to confirm the total"),
///       ActionCase("orderPlaced", "The store took the order", sentBy: .httpEffect, .labeled("orderID", Int?.self)),
///     ])
///   }
///   public var actionCaseName: String {
///     switch self {
///     case .addItem: "addItem"
///     case .payButtonTapped: "payButtonTapped"
///     case .orderPlaced: "orderPlaced"
///     }
///   }
/// }
/// ```
public protocol DescribedAction: DescribedValue, Codable, Sendable, ActionPathDescribable {
  /// Every case of the enum, in declaration order.
  static var actionSchema: ActionSchema { get }
  /// The name of this value's case, as its schema and its JSON coding key spell it.
  var actionCaseName: String { get }
}

extension DescribedAction {
  /// An action nested in another is addressed by its cases: a further path step.
  public static var valueSchema: ValueSchema { .action(Self.self) }

  /// The command line of `action` (``ActionPath/describe(_:)``): what an
  /// alert's button publishes as the path it sends.
  public static func commandLine(of action: Self) -> String { ActionPath.describe(action) }
}
