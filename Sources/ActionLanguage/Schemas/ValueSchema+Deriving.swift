import JSON

extension ValueSchema {
  /// The schema of a value of type `T`, as a case's sample carries it
  /// (`example`, its JSON): the type's own description when it has one
  /// (``DescribedValue``: numbers, text, nested actions, collections,
  /// bindings), a string enum's raw values, or else a JSON payload checked by
  /// decoding it as `T`.
  static func derived<T: Decodable>(for type: T.Type, example: JSONValue?) -> ValueSchema {
    if let described = T.self as? any DescribedValue.Type { return described.valueSchema }
    if let enumeration = EnumerationSchema(stringEnum: T.self) { return ValueSchema(.enumeration(enumeration)) }
    return ValueSchema(.json(OpaqueValueSchema(T.self, example: example ?? .null)))
  }
}

extension EnumerationSchema {
  /// The schema of `type` when it is an enum of string raw values that lists
  /// its cases (`CaseIterable`); `nil` for any other type.
  init?(stringEnum type: Any.Type) {
    guard let iterable = type as? any (RawRepresentable & CaseIterable).Type,
      let rawValues = Self.rawValues(of: iterable)
    else { return nil }
    self.init(typeName: TypeName.of(type), rawValues: rawValues)
  }

  private static func rawValues<Enumeration: RawRepresentable & CaseIterable>(
    of type: Enumeration.Type
  ) -> [String]? {
    guard Enumeration.RawValue.self == String.self else { return nil }
    return Enumeration.allCases.compactMap { $0.rawValue as? String }
  }
}
