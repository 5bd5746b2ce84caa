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

  /// A reference to `Action`'s schema.
  public init<Action: DescribedAction>(_ type: Action.Type) {
    self.typeName = TypeName.of(Action.self)
    self.typeID = ObjectIdentifier(Action.self)
    self.load = { ActionSchema(deriving: Action.self) }
  }

  /// The referenced type's schema, built the first time it is asked for and
  /// kept: describing or parsing an action walks these for every action, and
  /// reading one from its samples costs more than the walk.
  public var schema: ActionSchema { Self.schema(typeID, load: load) }

  /// `Action`'s schema, from the same store as every reference's.
  static func schema<Action: DescribedAction>(of type: Action.Type) -> ActionSchema {
    schema(ObjectIdentifier(Action.self)) { ActionSchema(deriving: Action.self) }
  }

  private static func schema(_ typeID: ObjectIdentifier, load: () -> ActionSchema) -> ActionSchema {
    if let built = built.withLock({ $0[typeID] }) { return built }
    let schema = load()
    built.withLock { $0[typeID] = schema }
    return schema
  }

  private static let built = Mutex<[ObjectIdentifier: ActionSchema]>([:])
}
