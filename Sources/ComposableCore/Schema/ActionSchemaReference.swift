/// A nested action type, whose schema is built only when a path reaches it.
///
/// Lazy so that a schema costs one level to build and an action type may
/// contain itself; the type's identity lets path listings stop at recursion.
public struct ActionSchemaReference: Sendable {
  /// The action type's name for help text, e.g. `Cart.Action`.
  public let typeName: String
  /// The action type's identity, to detect recursion.
  let typeID: ObjectIdentifier
  private let load: @Sendable () -> ActionSchema
  private let decodeCaseName: @Sendable (JSONValue) throws -> String

  /// A reference to `Action`'s schema.
  public init<Action: DescribedAction>(_ type: Action.Type) {
    self.typeName = TypeName.of(Action.self)
    self.typeID = ObjectIdentifier(Action.self)
    self.load = { Action.actionSchema }
    self.decodeCaseName = { json in try json.decode(Action.self).actionCaseName }
  }

  /// The referenced type's schema, built now.
  public var schema: ActionSchema { load() }

  /// Decodes `action` as the referenced type and returns the name of the case
  /// it decoded to: how tests prove that a schema matches its enum.
  public func decodedCaseName(of action: JSONValue) throws -> String {
    try decodeCaseName(action)
  }
}
