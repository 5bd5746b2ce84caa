import FoundationEssentials
import JSON
import TestSupport
import Testing

@Suite(.ownThreads) struct CanonicalJSONTests {
  @Test func objectsAreCompactWithKeysSortedByUTF8Bytes() throws {
    let value: JSONValue = .object([
      "b": .int(1), "a": .array([.bool(true), .null, .double(1.5)]), "B": .string("x"), "é": .int(2),
      "aa": .object([:]), "\u{FF5E}": .int(3), "😀": .int(4),
    ])
    // "B" (0x42) < "a" < "aa" < "b" < "é" (C3 A9) < U+FF5E (EF BD 9E) < 😀 (F0 9F 98 80);
    // UTF-16 order would put 😀 (D83D) before U+FF5E.
    #expect(canonical(value) == #"{"B":"x","a":[true,null,1.5],"aa":{},"b":1,"é":2,"～":3,"😀":4}"#)
  }

  @Test func stringsEscapeOnlyWhatRFC8259Requires() {
    let value = JSONValue.string("q\"b\\s/n\nr\rt\tb\u{8}f\u{C}c\u{1}\u{1F}d\u{7F}é😀")
    #expect(canonical(value) == #""q\"b\\s/n\nr\rt\tb\bf\fc\u0001\u001fd"# + "\u{7F}é😀\"")
  }

  @Test(arguments: [
    (1.0, "1.0"), (0.1, "0.1"), (-2.5, "-2.5"), (1e-7, "1e-07"), (1e16, "1e+16"), (123456.789, "123456.789"),
    (-0.0, "0.0"), (.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
  ])
  func doublesUseTheShortestRoundTripForm(_ double: Double, _ expected: String) {
    #expect(canonical(.double(double)) == expected)
  }

  @Test func integersAreDecimal() {
    #expect(
      canonical(.array([.int(0), .int(-7), .int(.max), .int(.min)]))
        == "[0,-7,9223372036854775807,-9223372036854775808]")
  }

  /// Integers are written as `String(_:)` writes them, at every width and
  /// around every power of ten.
  @Test func integersAreWrittenAsTheirDescription() {
    func written(_ value: some FixedWidthInteger) -> String {
      var bytes: [UInt8] = []
      CanonicalJSON.writeInteger(value, to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
    var values: [Int] = [0, .max, .min, .max - 1, .min + 1]
    var power = 1
    while true {
      values += [power - 1, power, power + 1, -power + 1, -power, -power - 1]
      let (next, overflow) = power.multipliedReportingOverflow(by: 10)
      if overflow { break }
      power = next
    }
    for value in values { #expect(written(value) == String(value)) }
    #expect(written(UInt64.max) == "18446744073709551615")
    #expect(written(Int8.min) == "-128")
    #expect(written(UInt8(7)) == "7")
  }

  @Test func randomDoublesReadBackBitForBit() throws {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<5_000 {
      let double = Double(bitPattern: generator.next())
      guard double.isFinite else { continue }
      let parsed = try JSONParser.parse(CanonicalJSON.encode(.double(double)))
      guard case .double(let back) = parsed else {
        Issue.record("\(double) read back as \(parsed)")
        continue
      }
      #expect(back.bitPattern == (double == 0 ? 0.0 : double).bitPattern, "\(double)")
    }
  }

  @Test func randomDocumentsReadBackEqualAndEqualValuesGiveEqualBytes() throws {
    var random = RandomJSON(seed: 11)
    for _ in 0..<500 {
      let value = random.document()
      let bytes = CanonicalJSON.encode(value)
      let parsed = try JSONParser.parse(bytes)
      #expect(parsed == value)
      #expect(CanonicalJSON.encode(parsed) == bytes)
      #expect(CanonicalJSON.encode(rebuilt(value)) == bytes)
    }
  }

  /// An equal value whose objects were built member by member, in reverse
  /// order.
  private func rebuilt(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      var copy = JSONObject()
      for (key, member) in members.reversed() { copy[key] = rebuilt(member) }
      return .object(copy)
    case .array(let elements):
      return .array(elements.map(rebuilt))
    default:
      return value
    }
  }

  struct Order: Codable, Equatable {
    var id: Int
    var placed: Date
    var note: String?
    var lines: [Line]
    var total: Double
  }

  struct Line: Codable, Equatable {
    var sku: String
    var quantity: Int
  }

  @Test func codableValuesEncodeWithISO8601DatesAndDecodeBack() throws {
    let order = Order(
      id: 7, placed: Date(timeIntervalSince1970: 1_700_000_000), note: nil,
      lines: [Line(sku: "a/b", quantity: 2)], total: 12.5)
    let value = try CanonicalJSON.value(of: order)
    #expect(
      canonical(value)
        == #"{"id":7,"lines":[{"quantity":2,"sku":"a/b"}],"note":null,"placed":"2023-11-14T22:13:20.000Z","total":12.5}"#
    )
    #expect(try CanonicalJSON.decode(Order.self, from: value) == order)
  }

  @Test func decodingAMismatchNamesTheField() throws {
    let value = try json(#"{"id":"seven","lines":[],"placed":"2023-11-14T22:13:20Z","total":1}"#)
    #expect(throws: DecodingError.self) { try CanonicalJSON.decode(Order.self, from: value) }
  }
}
