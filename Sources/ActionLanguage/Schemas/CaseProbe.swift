import JSON

/// Reads one action case from a value of it: its name from the value's
/// encoding, and the label, type and optionality of each associated value
/// from what the type's `init(from:)` asks a decoder for.
///
/// Swift's synthesized `Codable` for an enum keys the case by its name and
/// its values by their labels (`_0`, `_1`, … when unlabelled), and decodes
/// each value with `decode(T.self, forKey:)`, or `decodeIfPresent` for an
/// optional. Decoding the value's own JSON through a decoder that records
/// those calls therefore gives the case exactly as the type decodes it,
/// without a list written beside the enum that could disagree with it.
enum CaseProbe {
  /// The case that `described.sample` is a value of, in the schema of
  /// `Action` (named `typeName` in problems).
  ///
  /// - Throws: ``ActionSchemaProblem`` when the type is not an enum whose
  ///   `Codable` conformance Swift synthesizes (the only kind a schema can
  ///   be read from), or its encoding does not decode back to the case.
  static func actionCase<Action: Codable & Sendable>(
    of described: DescribedCase<Action>, typeName: String
  ) throws(ActionSchemaProblem) -> ActionCase {
    func problem(_ text: String) -> ActionSchemaProblem { ActionSchemaProblem(typeName: typeName, text) }
    let json: JSONValue
    do {
      json = try CanonicalJSON.value(of: described.sample)
    } catch {
      throw problem("the sample \(described.sample) does not encode: \(error)")
    }
    guard let (name, body) = EnumCaseJSON.split(json) else {
      throw problem(
        "the sample \(described.sample) encodes as \(CanonicalJSON.text(json)), not as one enum case: "
          + "a described action is an enum whose Codable conformance Swift synthesizes")
    }
    let probe = Probe(caseName: name, body: body)
    let decoded: Action
    do {
      decoded = try Action(from: ProbeDecoder(probe: probe))
    } catch {
      throw problem("the sample of case '\(name)' does not decode through its case: \(error)")
    }
    guard (try? CanonicalJSON.value(of: decoded)) == json else {
      throw problem("the sample of case '\(name)' does not decode to itself: \(CanonicalJSON.text(json))")
    }
    return ActionCase(name: name, summary: described.summary, sentBy: described.sentBy, arguments: probe.arguments)
  }
}

/// What one probe has seen: the case it decodes and the values asked for.
private final class Probe {
  let caseName: String
  /// The JSON after the case's name, or `nil` for a case written as its name.
  let body: JSONValue?
  var arguments: [ActionArgument] = []

  init(caseName: String, body: JSONValue?) {
    self.caseName = caseName
    self.body = body
  }

  /// The values of the case keyed by coding key, for value keys `Key`.
  func values<Key: CodingKey>(keyedBy type: Key.Type) throws -> JSONObject {
    guard let body else { return [:] }
    guard let values = EnumCaseJSON.values(body, isValueName: { Key(stringValue: $0) != nil }) else {
      throw ProbeFailure("the case's values \(CanonicalJSON.text(body)) are not keyed by \(Key.self)")
    }
    return values
  }
}

/// Why a probe could not read a type as a synthesized enum.
private struct ProbeFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The decoder a probe hands the action type: it offers exactly one key, the
/// case's name, and the case's values below it.
private struct ProbeDecoder: Decoder {
  let probe: Probe
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard let key = Key(stringValue: probe.caseName) else {
      throw ProbeFailure("\(Key.self) has no key '\(probe.caseName)'")
    }
    return KeyedDecodingContainer(ProbeContainer<Key>(probe: probe, level: .caseName(key)))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw ProbeFailure("it decodes an array, not an enum case")
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw ProbeFailure("it decodes a single value, not an enum case")
  }
}

/// A keyed container of a probe: the enum's, holding only the case's key,
/// or the case's, whose every decoded value is recorded as an argument.
private struct ProbeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  enum Level {
    case caseName(Key)
    case values(JSONObject)
  }

  let probe: Probe
  let level: Level
  var codingPath: [any CodingKey] { [] }

  var allKeys: [Key] {
    switch level {
    case .caseName(let key): [key]
    case .values(let values): values.keys.compactMap { Key(stringValue: $0) }
    }
  }

  func contains(_ key: Key) -> Bool {
    switch level {
    case .caseName(let caseKey): key.stringValue == caseKey.stringValue
    case .values(let values): values[key.stringValue] != nil
    }
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    guard case .caseName = level else {
      throw ProbeFailure("it decodes '\(key.stringValue)' as a nested container rather than a value")
    }
    let values = try probe.values(keyedBy: NestedKey.self)
    return KeyedDecodingContainer(ProbeContainer<NestedKey>(probe: probe, level: .values(values)))
  }

  /// Records `type` as the value keyed `key`, and decodes it from the
  /// sample's JSON so that the type's `init(from:)` goes on.
  private func record<T: Decodable>(_ type: T.Type, forKey key: Key, optional: Bool) throws -> T? {
    guard case .values(let values) = level else {
      throw ProbeFailure("it decodes '\(key.stringValue)' as a value where an enum decodes its case")
    }
    let json = values[key.stringValue]
    let schema = ValueSchema.derived(for: T.self, example: json)
    probe.arguments.append(ActionArgument(codingKey: key.stringValue, value: optional ? .optional(schema) : schema))
    guard let json else {
      if optional { return nil }
      throw ProbeFailure("the sample has no value for '\(key.stringValue)'")
    }
    // A value of a type that is itself written `null` (a JSON value) decodes
    // from it; an optional's `null` is its `nil`.
    if optional && json == .null { return nil }
    return try json.decode(T.self)
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try record(type, forKey: key, optional: true)
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard case .values(let values) = level else { return false }
    return values[key.stringValue] == nil || values[key.stringValue] == .null
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw ProbeFailure("it decodes '\(key.stringValue)' as an array container")
  }

  func superDecoder() throws -> any Decoder { throw ProbeFailure("it asks for a super decoder") }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw ProbeFailure("it asks for a super decoder") }

  // The concrete overloads the protocol requires, each recorded like any value.
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(Bool.self, key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(String.self, key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(Double.self, key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(Float.self, key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(Int.self, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(Int8.self, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(Int16.self, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(Int32.self, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(Int64.self, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(UInt.self, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(UInt8.self, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(UInt16.self, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(UInt32.self, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(UInt64.self, key) }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try record(Bool.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try record(String.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try record(Double.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try record(Float.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try record(Int.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try record(Int8.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try record(Int16.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try record(Int32.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try record(Int64.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try record(UInt.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try record(UInt8.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try record(UInt16.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try record(UInt32.self, forKey: key, optional: true)
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try record(UInt64.self, forKey: key, optional: true)
  }

  /// The value keyed `key`, which is not optional, recorded.
  private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
    guard let value = try record(type, forKey: key, optional: false) else {
      throw ProbeFailure("the sample has no value for '\(key.stringValue)'")
    }
    return value
  }
}
