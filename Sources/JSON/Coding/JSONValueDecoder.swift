import FoundationEssentials

/// Decodes a `Decodable` value straight from a parsed ``JSONValue``, as
/// Foundation's `JSONDecoder` would from the value's bytes with ISO 8601
/// dates and non-finite numbers as strings, but for dates, which keep their
/// milliseconds: the one decoder of the product.
///
/// Every action a client sends arrives as a `JSONValue`; this decoder walks
/// the value rather than bytes, with these rules:
///
/// - dates as ``JSONDate`` reads them, RFC 3339 with or without a fraction
///   (rounded to the millisecond) and with `Z` or an offset; base64 `Data`,
///   `URL` from its string;
/// - `"Infinity"`, `"-Infinity"` and `"NaN"` as non-finite floating point;
/// - an integer from a fractional number only when it is exact (`3.0`);
/// - an enum's synthesized coding reads the forms ``EnumCaseJSON`` defines
///   (`"idle"`, `{"failed":"…"}`) as well as Foundation's
///   (`{"idle":{}}`, `{"failed":{"_0":"…"}}`);
/// - errors are `DecodingError`s carrying the coding path.
public enum JSONValueDecoder {
  /// Decodes `type` from `value`.
  ///
  /// - Throws: `DecodingError`, which names the coding path.
  public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try ValueDecoder(value, path: .root).unbox(type)
  }

  /// Decodes `type` from the JSON text `bytes` (``JSONParser``), as a web
  /// API's answer or a stored document arrives.
  ///
  /// - Throws: ``JSONParseError`` when `bytes` are not JSON, naming the byte
  ///   offset; `DecodingError` when they do not hold a `type`.
  public static func decode<T: Decodable>(_ type: T.Type, fromJSON bytes: some Collection<UInt8>) throws -> T {
    try decode(type, from: try JSONParser.parse(bytes))
  }
}

/// The `Decoder` for one value and the path that led to it.
private struct ValueDecoder: Decoder {
  let value: JSONValue
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(_ value: JSONValue, path: CodingPath) {
    self.value = value
    self.path = path
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case .object(let members):
      return KeyedDecodingContainer(KeyedContainer<Key>(members: members, path: path))
    case .string(let name) where EnumCaseJSON.isCaseName(name, keyType: type):
      // A case without values, as its name.
      return KeyedDecodingContainer(KeyedContainer<Key>(members: [name: .object([:])], path: path))
    default:
      throw mismatch([String: Any].self)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else { throw mismatch([Any].self) }
    return UnkeyedContainer(elements: elements, path: path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

  // MARK: Values

  /// The value as `T`: a primitive or one of Foundation's types JSONDecoder
  /// treats specially, else whatever `T.init(from:)` reads.
  func unbox<T: Decodable>(_ type: T.Type) throws -> T {
    // Type identity first, not `is`: a comparison per type instead of a
    // failed dynamic cast, for every value decoded (all of these are
    // structs). The cast after it succeeds, and costs what `as!` would,
    // without a trap.
    if T.self == Bool.self, let bool = try bool() as? T { return bool }
    if T.self == String.self, let string = try string() as? T { return string }
    if T.self == Double.self, let double = try floatingPoint(Double.self) as? T { return double }
    if T.self == Float.self, let float = try floatingPoint(Float.self) as? T { return float }
    if T.self == Int.self, let int = try integer(Int.self) as? T { return int }
    if T.self == Int64.self, let int = try integer(Int64.self) as? T { return int }
    if T.self == UInt64.self, let int = try integer(UInt64.self) as? T { return int }
    if T.self == Date.self, let date = try date() as? T { return date }
    if T.self == Data.self, let data = try data() as? T { return data }
    if T.self == URL.self, let url = try url() as? T { return url }
    if T.self == Decimal.self, let decimal = try decimal() as? T { return decimal }
    if T.self == JSONValue.self, let json = Self.plain(value) as? T { return json }
    return try T(from: self)
  }

  /// `value` as `JSONValue.init(from:)` reads it from this decoder, without
  /// trying each type in turn: every failed try builds an error with its
  /// coding path, which made a large or deep value (a binding's, a client's)
  /// cost the store loop seconds. Whole numbers written with a fraction
  /// become integers, and the strings of non-finite numbers numbers.
  static func plain(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let number): return Int(exactly: number).map(JSONValue.int) ?? value
    case .string("Infinity"): return .double(.infinity)
    case .string("-Infinity"): return .double(-.infinity)
    case .string("NaN"): return .double(.nan)
    case .array(let elements): return .array(elements.map(plain))
    case .object(let members): return .object(JSONObject(members.map { ($0.key, plain($0.value)) }))
    default: return value
    }
  }

  func bool() throws -> Bool {
    guard case .bool(let bool) = value else { throw mismatch(Bool.self) }
    return bool
  }

  func string() throws -> String {
    guard case .string(let string) = value else { throw mismatch(String.self) }
    return string
  }

  func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    let converted: T?
    switch value {
    case .int(let int): converted = T(exactly: int)
    case .double(let double): converted = T(exactly: double)
    default: throw mismatch(type)
    }
    guard let converted else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "Number \(CanonicalJSON.text(value)) does not fit in \(type)."))
    }
    return converted
  }

  func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
    switch value {
    case .int(let int): return T(int)
    case .double(let double):
      let converted = T(double)
      guard converted.isFinite else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: codingPath, debugDescription: "Number \(double) does not fit in \(type)."))
      }
      return converted
    case .string("Infinity"): return .infinity
    case .string("-Infinity"): return -.infinity
    case .string("NaN"): return .nan
    default: throw mismatch(type)
    }
  }

  /// A date as ``JSONDate`` reads it: the `Date` the clock gives for the
  /// same millisecond.
  func date() throws -> Date {
    let text = try string()
    do {
      return try JSONDate.date(parsing: text)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath, debugDescription: "Expected a date: \(error.description)"))
    }
  }

  func data() throws -> Data {
    guard let data = Data(base64Encoded: try string()) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
    }
    return data
  }

  func decimal() throws -> Decimal {
    switch value {
    case .int, .double:
      // From the number's digits, as JSONDecoder reads it, not through a Double.
      guard let decimal = Decimal(string: CanonicalJSON.text(value)) else { throw mismatch(Decimal.self) }
      return decimal
    default:
      throw mismatch(Decimal.self)
    }
  }

  func url() throws -> URL {
    guard let url = URL(string: try string()) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath, debugDescription: "Invalid URL string."))
    }
    return url
  }

  /// The error for a value of the wrong kind; null reads as a missing value.
  func mismatch(_ expected: Any.Type) -> DecodingError {
    if case .null = value {
      return .valueNotFound(
        expected,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "Cannot get value of type \(expected) -- found null value instead"))
    }
    return .typeMismatch(
      expected,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "Expected to decode \(expected) but found \(value.kindName) instead.")
    )
  }
}

extension JSONValue {
  /// The kind of value, as an error message names it.
  fileprivate var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "a dictionary"
    }
  }
}

// MARK: Containers

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: JSONObject
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  /// A plain loop: every enum's synthesized `init(from:)` asks for these, and
  /// the generic `compactMap` cost several times as much.
  var allKeys: [Key] {
    var keys: [Key] = []
    keys.reserveCapacity(members.count)
    for member in members {
      if let key = Key(stringValue: member.key) { keys.append(key) }
    }
    return keys
  }

  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  private func decoder(for key: Key) throws -> ValueDecoder {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return ValueDecoder(value, path: path.child(key))
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try decoder(for: key).value { return true }
    return false
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).unbox(type) }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).bool() }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).string() }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).floatingPoint(type) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).floatingPoint(type) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).integer(type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).integer(type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).integer(type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).integer(type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).integer(type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).integer(type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).integer(type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).integer(type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).integer(type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).integer(type) }

  /// An enum case's values (``EnumCaseJSON``), or any other nested object.
  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let decoder = try decoder(for: key)
    guard let values = EnumCaseJSON.values(decoder.value, keyType: type) else {
      return try decoder.container(keyedBy: type)
    }
    return KeyedDecodingContainer(KeyedContainer<NestedKey>(members: values, path: decoder.path))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(for: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(members["super"] ?? .null, path: path.child(SuperKey()))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(members[key.stringValue] ?? .null, path: path.child(key))
  }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
  let elements: JSONArray
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  private(set) var currentIndex = 0

  init(elements: JSONArray, path: CodingPath) {
    self.elements = elements
    self.path = path
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  /// The decoder for the next element, moving past it.
  private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
    }
    defer { currentIndex += 1 }
    return ValueDecoder(elements[currentIndex], path: path.child(IndexKey(currentIndex)))
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any?.self,
        DecodingError.Context(
          codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
    }
    guard case .null = elements[currentIndex] else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).unbox(type) }
  mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).bool() }
  mutating func decode(_ type: String.Type) throws -> String { try next(type).string() }
  mutating func decode(_ type: Double.Type) throws -> Double { try next(type).floatingPoint(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try next(type).floatingPoint(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try next(type).integer(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).integer(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).integer(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).integer(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).integer(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).integer(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).integer(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).integer(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).integer(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).integer(type) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
    NestedKey
  > {
    try next([String: Any].self).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next([Any].self).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
  let decoder: ValueDecoder
  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool {
    if case .null = decoder.value { return true }
    return false
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(type) }
  func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
  func decode(_ type: String.Type) throws -> String { try decoder.string() }
  func decode(_ type: Double.Type) throws -> Double { try decoder.floatingPoint(type) }
  func decode(_ type: Float.Type) throws -> Float { try decoder.floatingPoint(type) }
  func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
}

// MARK: Keys

/// The key of an array element in a coding path.
private struct IndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }

  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

/// The key `superDecoder()` reads, as synthesized code names it.
private struct SuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }

  init() {}
  init?(stringValue: String) {
    guard stringValue == "super" else { return nil }
  }
  init?(intValue: Int) { nil }
}
