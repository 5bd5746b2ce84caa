import ComposableCore

/// The fields a `BindingAction<Root>` can set: the last step of a binding path
/// is a field name, and the value follows as an argument.
public struct BindingSchema: Sendable {
  /// One settable field.
  public struct Field: Sendable {
    /// The field's name, as bindings carry it.
    public let name: String
    /// How the field's value is written.
    public let value: ValueSchema
    /// One line for `tcactl actions`.
    public let summary: String
  }

  /// The state's name, e.g. `BMIInput.State`.
  public let typeName: String
  /// The fields, in listing order.
  public let fields: [Field]

  /// The bindable fields of `Root`, each value's schema read from its type.
  public init<Root: BindableState>(_ type: Root.Type) {
    self.typeName = TypeName.of(Root.self)
    self.fields = Root.bindableFields.map {
      Field(name: $0.name, value: ValueSchema.derived(for: $0.valueType, example: nil), summary: $0.summary)
    }
  }

  /// The field named `name`, if there is one.
  public func field(named name: String) -> Field? {
    fields.first { $0.name == name }
  }
}
