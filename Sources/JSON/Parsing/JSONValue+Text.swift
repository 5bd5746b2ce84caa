extension JSONValue {
  /// The value that JSON `text` holds, or `nil` when `text` is not JSON: what
  /// a command line accepts as a literal. A number with a whole value is an
  /// integer however it is written (`3.0`, `1e2`), as `JSONValue`'s own
  /// `Decodable` reads it.
  package init?(jsonText text: String) {
    guard let value = try? JSONParser.parse(text.utf8) else { return nil }
    self = value.wholeNumbersAsIntegers
  }

  /// This value with every fractional number that is a whole `Int` as that
  /// integer.
  private var wholeNumbersAsIntegers: JSONValue {
    switch self {
    case .double(let number): Int(exactly: number).map(JSONValue.int) ?? self
    case .array(let elements): .array(elements.map(\.wholeNumbersAsIntegers))
    case .object(let members): .object(JSONObject(members.map { ($0.key, $0.value.wholeNumbersAsIntegers) }))
    default: self
    }
  }
}
