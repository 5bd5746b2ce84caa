import FoundationEssentials
import JSON
import TestSupport
import Testing

/// `JSONValueEncoder` builds the value that `JSONEncoder`, set to the JSON module's
/// rules (`FoundationJSON.encoder()`), writes and `JSONParser` reads back.
@Suite(.ownThreads) struct JSONValueEncoderTests {
  /// What the reference makes of `value`: its bytes, parsed.
  static func reference(_ value: some Encodable) throws -> JSONValue {
    try JSONParser.parse(Array(FoundationJSON.encoder().encode(value)))
  }

  /// Both encodings of `value`, which must be equal.
  static func expectSame(_ value: some Encodable, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let built = try JSONValueEncoder.encode(value)
    let reference = try reference(value)
    #expect(
      built == reference, "\(CanonicalJSON.text(built)) vs \(CanonicalJSON.text(reference))",
      sourceLocation: sourceLocation)
  }

  @Test func encodesEverythingTheDecoderTestsDecode() throws {
    // The differences from JSONEncoder: optional members without a value
    // are written as null rather than left out, enums as EnumCaseJSON
    // writes them (a case without values as its name), and dates with
    // their milliseconds (JSONDate).
    let built = try JSONValueEncoder.encode(JSONValueDecoderTests.everything)
    let reference = try JSONPatch.apply(
      [
        .add(path: JSONPointer("/missing"), value: .null),
        .add(path: JSONPointer("/shapes/2/labelled/tags"), value: .null),
        .replace(path: JSONPointer("/shapes/0"), value: .string("point")),
        .replace(path: JSONPointer("/when"), value: .string("2026-09-21T14:13:20.000Z")),
      ], to: Self.reference(JSONValueDecoderTests.everything))
    #expect(built == reference, "\(CanonicalJSON.text(built)) vs \(CanonicalJSON.text(reference))")
    #expect(
      try JSONValueDecoder.decode(
        JSONValueDecoderTests.Everything.self, from: JSONValueEncoder.encode(JSONValueDecoderTests.everything))
        == JSONValueDecoderTests.everything)
  }

  /// Doubles become what their shortest description, without a trailing
  /// `.0`, reads back as; a Float is read from its own description.
  @Test(arguments: [
    0.0, -0.0, 1.0, -2.0, 0.1, 1.5, 1e-5, 1e-7, 123_456_789.0, 1e15, 9_007_199_254_740_993.0, 1e16, 1.5e300, -1e22,
    0x1p53, -0x1p53, 0x1p53 - 1, -(0x1p53 - 1), 0x1p52 + 0.5, 0x1p52 + 1, 0x1p63, -0x1p63,
    Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
  ])
  func doublesAsJSONEncoderWritesThem(_ value: Double) throws {
    try Self.expectSame(value)
    try Self.expectSame([value])
    try Self.expectSame(["x": value])
  }

  /// Doubles of every magnitude, whole and not, from random bit patterns
  /// and from whole numbers near 2^53, where the description changes form.
  @Test func doublesOfEveryMagnitudeAsJSONEncoderWritesThem() throws {
    var generator = SplitMix64(seed: 53)
    var values: [Double] = []
    for _ in 0..<2_000 {
      let value = Double(bitPattern: generator.next())
      if value.isFinite { values.append(value) }
      // A whole number of up to 60 bits, and a fraction of it.
      let whole = Double(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 60 + 3))
      values.append(whole)
      values.append(whole / 8)
    }
    for shift in 0..<64 { values.append(0x1p53 - Double(shift)) }
    for value in values { try Self.expectSame(["x": value]) }
  }

  @Test(arguments: [Float(0.1), 2.5, 3.0, -0.0, 16_777_216, 1e-3, .greatestFiniteMagnitude, .infinity, .nan])
  func floatsAsJSONEncoderWritesThem(_ value: Float) throws {
    try Self.expectSame(value)
    try Self.expectSame([value])
    try Self.expectSame(["x": value])
  }

  @Test func integersOfEveryWidth() throws {
    try Self.expectSame([Int.min, -1, 0, Int.max])
    try Self.expectSame([Int8.min, Int8.max])
    try Self.expectSame([Int16.min, Int16.max])
    try Self.expectSame([Int32.min, Int32.max])
    try Self.expectSame([Int64.min, Int64.max])
    try Self.expectSame([UInt.max, UInt(Int.max), UInt(Int.max) + 1])
    try Self.expectSame([UInt8.max])
    try Self.expectSame([UInt16.max])
    try Self.expectSame([UInt32.max])
    try Self.expectSame([UInt64.max, 0])
    #expect(try JSONValueEncoder.encode(UInt64.max) == .double(Double(UInt64.max)))
  }

  @Test func foundationValuesAsJSONEncoderTreatsThem() throws {
    // Dates keep their milliseconds, where JSONEncoder's `.iso8601` writes
    // whole seconds (JSONDateTests).
    #expect(
      try JSONValueEncoder.encode([
        Date(timeIntervalSince1970: 1_790_000_000.987), Date(timeIntervalSince1970: -86_400.5),
      ])
        == .array([.string("2026-09-21T14:13:20.987Z"), .string("1969-12-30T23:59:59.500Z")]))
    try Self.expectSame(Data())
    try Self.expectSame(Data([0, 1, 2, 250, 251, 252, 253, 254, 255]))
    try Self.expectSame(URL(string: "https://example.com/a b?c=d#e") ?? URL(string: "https://example.com")!)
    try Self.expectSame(URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/")))
    try Self.expectSame([Decimal(string: "3.14")!, Decimal(42), Decimal(string: "-0.001")!, Decimal(string: "1e40")!])
    try Self.expectSame(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
  }

  @Test func dictionariesByStringByIntAndByOtherKeys() throws {
    try Self.expectSame(["b": 2, "a": 1])
    try Self.expectSame([20: "twenty", 1: "one"])
    try Self.expectSame([2.5: "a"])
    try Self.expectSame([String: [Int?]]())
    try Self.expectSame(["x": [1, nil, 3]])
  }

  /// Nested containers, super encoders (in keyed and unkeyed containers, and
  /// written after later members), `encodeNil`, and a keyed container asked
  /// for twice.
  struct HandWritten: Encodable {
    enum Keys: String, CodingKey { case a, inner, list, late, absent }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .a)
      var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      let late = container.superEncoder(forKey: .late)
      let base = container.superEncoder()
      try container.encodeNil(forKey: .absent)
      try inner.encode("x", forKey: .a)
      try list.encode(true)
      var pair = list.nestedContainer(keyedBy: Keys.self)
      let element = list.superEncoder()
      var deeper = list.nestedUnkeyedContainer()
      try list.encode(2.0)
      try pair.encode(0.5, forKey: .a)
      try deeper.encode(UInt8(3))
      var single = element.singleValueContainer()
      try single.encode("from the super encoder")
      var lateContainer = late.container(keyedBy: Keys.self)
      try lateContainer.encode([1, 2], forKey: .list)
      _ = base  // encodes nothing: an empty object
      var again = encoder.container(keyedBy: Keys.self)
      try again.encode("again", forKey: .inner)
    }
  }

  @Test func containersFilledInAnyOrder() throws {
    try Self.expectSame(HandWritten())
    try Self.expectSame([HandWritten()])
  }

  /// A nested container asked for where a value of its shape was already
  /// encoded goes on filling it.
  struct Reopened: Encodable {
    enum Keys: String, CodingKey { case object, array }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(["kept": 1], forKey: .object)
      try container.encode([1, 2], forKey: .array)
      var object = container.nestedContainer(keyedBy: Keys.self, forKey: .object)
      var array = container.nestedUnkeyedContainer(forKey: .array)
      try object.encode("added", forKey: .array)
      try array.encode(3)
    }
  }

  @Test func aContainerReopenedOverAnEncodedValueKeepsIt() throws {
    try Self.expectSame(Reopened())
    #expect(
      try JSONValueEncoder.encode(Reopened())
        == .object([
          "object": .object(["kept": .int(1), "array": .string("added")]),
          "array": .array([.int(1), .int(2), .int(3)]),
        ]))
  }

  struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  struct Boom: Error {}
  struct Throws: Encodable {
    func encode(to encoder: any Encoder) throws { throw Boom() }
  }

  @Test func aValueThatEncodesNothingIsAnEmptyObjectBelowTheTopAndAnErrorAtIt() throws {
    try Self.expectSame([Nothing()])
    try Self.expectSame(["x": Nothing()])
    #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(Nothing()) }
    #expect(throws: EncodingError.self) { try Self.reference(Nothing()) }
    #expect(throws: Boom.self) { try JSONValueEncoder.encode(["x": [Throws()]]) }
  }

  /// Two values through one single value container: an `encode(to:)`
  /// written wrong, which JSONEncoder stops the program for.
  struct TwoValues: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(1)
      try container.encode("two")
    }
  }

  /// Such a value is an error naming where it is, not a trap: the state or
  /// action holding it does not encode, and the daemon says so.
  @Test func aSecondValueInASingleValueContainerIsAnError() {
    #expect {
      try JSONValueEncoder.encode(["x": [TwoValues()]])
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["x", "Index 0"]
        && context.debugDescription.hasPrefix("a single value container was given a second value (a string)")
    }
  }

  /// A value's own `encode(to:)` sees the path that led to it.
  struct PathReporter: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(
        encoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/"))
    }
  }

  @Test func codingPathsReachTheValues() throws {
    let value = ["outer": [[PathReporter()], [PathReporter(), PathReporter()]]]
    #expect(
      try JSONValueEncoder.encode(value)
        == .object([
          "outer": .array([.array([.string("outer/0/0")]), .array([.string("outer/1/0"), .string("outer/1/1")])])
        ]))
    try Self.expectSame(value)
  }

  /// JSONValue itself goes through its own `encode(to:)`: a fractional
  /// double that is whole comes back as an integer, as JSONEncoder writes it.
  @Test func aJSONValueEncodesAsJSONEncoderWritesIt() throws {
    let value: JSONValue = .object([
      "a": .double(2.0), "b": .array([.null, .bool(false), .string("s"), .double(0.25)]),
    ])
    try Self.expectSame(value)
    #expect(
      try JSONValueEncoder.encode(value)
        == .object(["a": .int(2), "b": .array([.null, .bool(false), .string("s"), .double(0.25)])]))
  }
}
