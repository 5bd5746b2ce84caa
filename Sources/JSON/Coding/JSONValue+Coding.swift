extension JSONValue {
  /// The JSON value that `value` encodes to, as `JSONEncoder` writes it:
  /// optional members without a value are left out
  /// (``JSONValueEncoder/NilMembers/omitted``), and a value that encodes
  /// nothing is an empty object. What a binding and a command line hold.
  ///
  /// - Throws: what the value's own `encode(to:)` throws.
  public init(encoding value: some Encodable) throws {
    // In an array, as a value inside a document: a value that encodes
    // nothing is then `{}` rather than an error.
    guard case .array(let elements) = try JSONValueEncoder.encode([value], nilMembers: .omitted),
      let first = elements.first
    else { preconditionFailure("an array of one value encodes to an array of one element") }
    self = first
  }

  /// This value decoded as `type` (``JSONValueDecoder``).
  ///
  /// - Throws: `DecodingError`, whose coding path starts at this value.
  public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try JSONValueDecoder.decode(type, from: self)
  }
}
