import FoundationEssentials
import JSON

/// Sets one form field of `Root` to a new value: the action of a text field or a
/// toggle bound to state.
///
/// The field travels by name and the value as JSON, so a binding can come from
/// any client (`tcactl send bmi.binding height 180`). Only the fields `Root`
/// lists in ``BindableState/bindableFields`` can be set.
public struct BindingAction<Root>: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The field's name, as listed in ``BindableState/bindableFields``.
  public let field: String
  /// The new value.
  public let value: JSONValue

  public init(field: String, value: JSONValue) {
    self.field = field
    self.value = value
  }

  public var description: String { "binding(\(field) = \(value))" }
}

extension BindingAction where Root: BindableState {
  /// Sets the field at `keyPath` to `value`.
  public static func set<Value: Codable & Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>, _ value: Value
  ) -> Self {
    Self(field: Root.fieldName(keyPath), value: (try? JSONValue(encoding: value)) ?? .null)
  }

  /// Whether this action sets the field at `keyPath`.
  public func sets<Value>(_ keyPath: WritableKeyPath<Root, Value>) -> Bool {
    field == Root.fieldName(keyPath)
  }
}

/// State whose fields can be set by ``BindingAction``s.
///
/// ```swift
/// extension BMI.State: BindableState {
///   static var bindableFields: [BindableField<Self>] {
///     [
///       BindableField("height", \.height, "Sets the height in centimetres, as typed"),
///       BindableField("weight", \.weight, "Sets the weight in kilograms, as typed"),
///     ]
///   }
/// }
/// ```
public protocol BindableState {
  /// The fields that bindings may set, by name.
  static var bindableFields: [BindableField<Self>] { get }
}

extension BindableState {
  package static func fieldName(_ keyPath: AnyKeyPath) -> String {
    bindableFields.first { $0.keyPath == keyPath }?.name ?? String(describing: keyPath)
  }
}

/// One field that bindings may set: its name, where it lives, what setting
/// it does for people, and how to decode a JSON value into it.
public struct BindableField<Root> {
  /// The field's name, as bindings carry it and a command line writes it.
  public let name: String
  /// One line for `tcactl actions`: what setting the field does.
  public let summary: String
  /// The type of the field's value, from which a command line's schema
  /// reads how the value is written.
  package let valueType: any Decodable.Type
  let keyPath: AnyKeyPath
  let apply: (inout Root, JSONValue) throws -> Void

  /// The field at `keyPath`, set by bindings naming it `name`; `summary`
  /// says what setting it does (by default "Sets `name`").
  public init<Value: Codable>(_ name: String, _ keyPath: WritableKeyPath<Root, Value>, _ summary: String? = nil) {
    self.name = name
    self.summary = summary ?? "Sets \(name)"
    self.valueType = Value.self
    self.keyPath = keyPath
    self.apply = { root, json in root[keyPath: keyPath] = try json.decode(Value.self) }
  }
}

/// A binding whose field or value does not fit the state.
public struct BindingError: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}

extension BindableState {
  /// Applies `binding`, or throws an error naming the expected fields or type.
  public mutating func apply(_ binding: BindingAction<Self>) throws {
    guard let field = Self.bindableFields.first(where: { $0.name == binding.field }) else {
      let names = Self.bindableFields.map(\.name).joined(separator: ", ")
      throw BindingError(message: "\(Self.self) has no bindable field '\(binding.field)'; expected one of: \(names)")
    }
    do {
      try field.apply(&self, binding.value)
    } catch {
      throw BindingError(message: "\(Self.self).\(field.name) cannot be set to \(binding.value): \(error)")
    }
  }
}
