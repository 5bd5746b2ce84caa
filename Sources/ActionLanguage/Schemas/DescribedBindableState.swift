import ComposableCore

/// Bindable state whose fields also say what type of value they take, so a
/// command line can check and convert `bmi.input.binding.height 180`.
///
/// ``BindableState/bindableFields`` knows names and key paths but not value
/// types; this adds the types on the schema side, one key path per field:
///
/// ```swift
/// extension BMIInput.State: DescribedBindableState {
///   public static var describedFields: [BindableFieldSchema<Self>] {
///     [BindableFieldSchema(\.height, "Height in centimetres, as typed")]
///   }
/// }
/// ```
public protocol DescribedBindableState: BindableState {
  /// The bindable fields with their value types, in listing order.
  static var describedFields: [BindableFieldSchema<Self>] { get }
}

/// One bindable field of `Root` with the type of its value.
///
/// The name is the one ``BindableState/bindableFields`` gives the key path, so
/// the schema cannot name a field differently from the binding it builds.
public struct BindableFieldSchema<Root: BindableState>: Sendable {
  /// The field's name, as bindings carry it.
  public let name: String
  /// How the field's value is written.
  public let value: ValueSchema
  /// One line for `tcactl actions`.
  public let summary: String

  /// The field at `keyPath`, named as `Root.bindableFields` names it.
  public init<Value: DescribedValue>(_ keyPath: WritableKeyPath<Root, Value>, _ summary: String) {
    self.name = Root.fieldName(keyPath)
    self.value = Value.valueSchema
    self.summary = summary
  }
}
