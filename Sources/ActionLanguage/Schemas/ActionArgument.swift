/// One associated value of an action case: its coding key, a name for help
/// text, and how it is written.
///
/// Swift's synthesized `Codable` keys a labeled value by its label and an
/// unlabeled one by its position (`_0`, `_1`, …); ``ActionCase`` resolves the
/// position when it is built.
public struct ActionArgument: Sendable {
  /// The value's label in the case declaration, or `nil` when unlabeled.
  public let label: String?
  /// The name shown in help and errors: the label, or a descriptive name.
  public let name: String
  /// How the value is written and checked.
  public let value: ValueSchema
  /// The JSON key of the value inside the case: the label, or `_` and its position.
  public private(set) var codingKey: String

  private init(label: String?, name: String, value: ValueSchema) {
    self.label = label
    self.name = name
    self.value = value
    self.codingKey = label ?? "_0"
  }

  /// An unlabeled value (`case addItem(Product.ID)`), shown as `name`.
  public static func unlabeled<Value: DescribedValue>(_ name: String, _ type: Value.Type) -> ActionArgument {
    ActionArgument(label: nil, name: name, value: Value.valueSchema)
  }

  /// An unlabeled value written as `value` describes, e.g. an opaque JSON payload.
  public static func unlabeled(_ name: String, _ value: ValueSchema) -> ActionArgument {
    ActionArgument(label: nil, name: name, value: value)
  }

  /// A labeled value (`case orderPlaced(orderID: Int?)`), keyed and shown by its label.
  public static func labeled<Value: DescribedValue>(_ label: String, _ type: Value.Type) -> ActionArgument {
    ActionArgument(label: label, name: label, value: Value.valueSchema)
  }

  /// A labeled value written as `value` describes.
  public static func labeled(_ label: String, _ value: ValueSchema) -> ActionArgument {
    ActionArgument(label: label, name: label, value: value)
  }

  /// This argument at `position` among its case's values.
  func positioned(at position: Int) -> ActionArgument {
    var argument = self
    argument.codingKey = label ?? "_\(position)"
    return argument
  }
}
