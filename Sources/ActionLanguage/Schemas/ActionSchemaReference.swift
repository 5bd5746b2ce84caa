import JSON
import Synchronization

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

  /// The referenced type's schema, built the first time it is asked for and
  /// kept: describing or parsing an action walks these for every action, and
  /// building one (type names included) costs more than the walk.
  public var schema: ActionSchema {
    if let built = Self.built.withLock({ $0[typeID] }) { return built }
    let schema = load()
    Self.built.withLock { $0[typeID] = schema }
    return schema
  }

  private static let built = Mutex<[ObjectIdentifier: ActionSchema]>([:])

  /// Decodes `action` as the referenced type and returns the name of the case
  /// it decoded to: how tests prove that a schema matches its enum.
  public func decodedCaseName(of action: JSONValue) throws -> String {
    try decodeCaseName(action)
  }
}
