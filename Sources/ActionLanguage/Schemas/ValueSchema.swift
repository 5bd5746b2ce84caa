import ComposableCore
import FoundationEssentials
import JSON

/// How one associated value is written on a command line and encoded as JSON:
/// a scalar, an enum's raw value, an opaque JSON payload, or a nested action
/// (which a path descends into instead of taking it as a word).
public struct ValueSchema: Sendable {
  /// The kinds of values an action can carry.
  public indirect enum Kind: Sendable {
    /// A whole number (`Int`).
    case int
    /// A finite number (`Double`).
    case double
    /// Any text (`String`).
    case string
    /// `true` or `false` (`Bool`).
    case bool
    /// A UUID in its text form, encoded upper-case (`UUID`).
    case uuid
    /// The wrapped value or `null`; synthesized `Codable` leaves `nil` out.
    case optional(ValueSchema)
    /// One of a string enum's raw values.
    case enumeration(EnumerationSchema)
    /// A payload that effects produce, written as a JSON literal.
    case json(OpaqueValueSchema)
    /// A nested action enum: the path goes on with one of its cases.
    case action(ActionSchemaReference)
    /// An `IdentifiedAction`: the path names an element by id (`rows[3]`) and
    /// goes on with the element's action.
    case identified(id: ValueSchema, element: ActionSchemaReference)
    /// A `StackAction`: the path names a screen by id (`path[3]`) and goes
    /// on with the screen's action, or goes on with one of `operations`
    /// (`path.popFrom 3`).
    case stack(element: ActionSchemaReference, operations: ActionSchemaReference)
    /// A `BindingAction`: the path ends with a field name, the value follows.
    case binding(BindingSchema)
  }

  /// What the value is.
  public let kind: Kind

  /// A schema of `kind`.
  public init(_ kind: Kind) {
    self.kind = kind
  }

  /// A whole number.
  public static let int = ValueSchema(.int)
  /// A finite number.
  public static let double = ValueSchema(.double)
  /// Any text.
  public static let string = ValueSchema(.string)
  /// `true` or `false`.
  public static let bool = ValueSchema(.bool)
  /// A UUID.
  public static let uuid = ValueSchema(.uuid)

  /// `wrapped` or `null`.
  public static func optional(_ wrapped: ValueSchema) -> ValueSchema { ValueSchema(.optional(wrapped)) }

  /// The schema `Value` describes itself with.
  public static func of<Value: DescribedValue>(_ type: Value.Type) -> ValueSchema { Value.valueSchema }

  /// A nested action: the path continues with one of `Action`'s cases.
  public static func action<Action: DescribedAction>(_ type: Action.Type) -> ValueSchema {
    ValueSchema(.action(ActionSchemaReference(Action.self)))
  }

  /// The action of one element of a collection, addressed as `name[id]`.
  public static func identified<ID: DescribedValue, Action: DescribedAction>(
    _ type: IdentifiedAction<ID, Action>.Type
  ) -> ValueSchema {
    ValueSchema(.identified(id: ID.valueSchema, element: ActionSchemaReference(Action.self)))
  }

  /// The actions of a navigation stack: a screen's, addressed as `name[id]`,
  /// or popping screens, `name.popFrom id`.
  public static func stack<State, Action: DescribedAction>(_ type: StackAction<State, Action>.Type) -> ValueSchema {
    ValueSchema(
      .stack(element: ActionSchemaReference(Action.self), operations: ActionSchemaReference(StackOperation.self)))
  }

  /// A form field set by name: `name.field value`.
  public static func binding<Root: BindableState>(_ type: BindingAction<Root>.Type) -> ValueSchema {
    ValueSchema(.binding(BindingSchema(Root.self)))
  }

  /// One of `Enumeration`'s raw values.
  public static func enumeration<Enumeration: RawRepresentable & CaseIterable>(
    _ type: Enumeration.Type
  ) -> ValueSchema where Enumeration.RawValue == String {
    ValueSchema(.enumeration(EnumerationSchema(Enumeration.self)))
  }

  /// A `Payload` written as a JSON literal, checked by decoding it; `sample`
  /// is a valid value, for tests and help.
  public static func json<Payload: Codable & Sendable>(_ type: Payload.Type, sample: Payload) -> ValueSchema {
    ValueSchema(.json(OpaqueValueSchema(Payload.self, sample: sample)))
  }

  /// Whether the value may be left out (`nil`).
  var isOptional: Bool {
    if case .optional = kind { return true }
    return false
  }

  /// The value's type for errors, e.g. `Int`, `Int?`, `AppTab`, `[Product]`.
  public var typeName: String {
    switch kind {
    case .int: "Int"
    case .double: "Double"
    case .string: "String"
    case .bool: "Bool"
    case .uuid: "UUID"
    case .optional(let wrapped): wrapped.typeName + "?"
    case .enumeration(let enumeration): enumeration.typeName
    case .json(let opaque): opaque.typeName
    case .action(let reference): reference.typeName
    case .identified(_, let element): "IdentifiedAction<\(element.typeName)>"
    case .stack(let element, _): "StackAction<\(element.typeName)>"
    case .binding(let binding): "BindingAction<\(binding.typeName)>"
    }
  }

  /// The value's type for listings: raw values spelled out (`counter|dice`),
  /// JSON payloads marked (`[Product] (JSON)`).
  public var usage: String {
    switch kind {
    case .optional(let wrapped):
      switch wrapped.kind {
      case .enumeration: wrapped.usage + "|null"
      case .json, .action, .identified, .stack, .binding: wrapped.typeName + "? (JSON)"
      default: wrapped.usage + "?"
      }
    case .enumeration(let enumeration): enumeration.rawValues.joined(separator: "|")
    case .json, .action, .identified, .stack, .binding: typeName + " (JSON)"
    default: typeName
    }
  }

  /// A valid value, for tests and examples.
  public var sample: JSONValue {
    switch kind {
    case .int: .int(1)
    case .double: .double(1.5)
    case .string: .string("text")
    case .bool: .bool(true)
    case .uuid: .string("00000000-0000-0000-0000-000000000001")
    case .optional(let wrapped): wrapped.sample
    case .enumeration(let enumeration): .string(enumeration.rawValues.first ?? "")
    case .json(let opaque): opaque.sample
    case .action(let reference): reference.schema.samples.first?.action ?? .object([:])
    case .identified(let id, let element):
      .object([
        "element": .object(["id": id.sample, "action": element.schema.samples.first?.action ?? .object([:])])
      ])
    case .stack(let element, _):
      .object([
        "element": .object(["id": .int(0), "action": element.schema.samples.first?.action ?? .object([:])])
      ])
    case .binding(let binding):
      binding.fields.first.map { .object(["field": .string($0.name), "value": $0.value.sample]) } ?? .object([:])
    }
  }
}
