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
    let array = try JSONValueEncoder.encode([value], nilMembers: .omitted)
    guard case .array(let elements) = array, elements.count == 1, let first = elements.first else {
      // The encoder writes an array of one value as an array of one element.
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [],
          debugDescription: "expected an array of one element from an array of one value, got \(array.kindDescription)")
      )
    }
    self = first
  }

  /// This value decoded as `type` (``JSONValueDecoder``).
  ///
  /// - Throws: `DecodingError`, whose coding path starts at this value.
  public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try JSONValueDecoder.decode(type, from: self)
  }
}
