/// One associated value of an action case: its coding key and how it is
/// written.
///
/// Swift's synthesized `Codable` keys a labelled value by its label and an
/// unlabelled one by its position (`_0`, `_1`, …).
public struct ActionArgument: Sendable {
  /// The JSON key of the value inside the case: the label, or `_` and its position.
  public let codingKey: String
  /// How the value is written and checked.
  public let value: ValueSchema

  /// The value keyed `codingKey` in its case, written as `value` describes.
  init(codingKey: String, value: ValueSchema) {
    self.codingKey = codingKey
    self.value = value
  }

  /// The value's label in the case declaration, or `nil` when unlabelled.
  public var label: String? { Self.isPositional(codingKey) ? nil : codingKey }

  /// The name shown in help and errors: the label, or the type of an
  /// unlabelled value (`Int`, `EffectFailure`).
  public var name: String { label ?? value.typeName }

  /// How the value is shown after its path: `<orderID: Int?>`, or `<Int>`
  /// when unlabelled.
  var usage: String { "<\(parameter)>" }

  /// The value in a list of parameters: `orderID: Int?`, or `Int` when unlabelled.
  var parameter: String { label.map { "\($0): \(value.usage)" } ?? value.usage }

  /// `<name: type>`, or `<type>` for a positional key (`_0`).
  static func usage(name: String, type: String) -> String {
    isPositional(name) ? "<\(type)>" : "<\(name): \(type)>"
  }

  /// Whether `key` is a synthesized positional key: `_` and digits.
  static func isPositional(_ key: String) -> Bool {
    key.utf8.count > 1 && key.utf8.first == UInt8(ascii: "_")
      && key.utf8.dropFirst().allSatisfy { $0 >= 48 && $0 <= 57 }
  }
}
