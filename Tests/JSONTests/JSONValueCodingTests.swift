import FoundationEssentials
import JSON
import TestSupport
import Testing

/// The JSON module's coding where values meet others' JSON: values as
/// `JSONEncoder` writes them (optional members left out), bytes decoded
/// through the parser, and literals read as `JSONDecoder` reads a
/// `JSONValue`.
@Suite(.ownThreads) struct JSONValueCodingTests {
  /// With optional members left out, the encoder builds what the reference
  /// `JSONEncoder` writes, but for enums, written as `EnumCaseJSON` says (a
  /// case whose only unlabelled value is left with it is `{"case":value}`),
  /// and dates, which keep their milliseconds (`JSONDate`).
  @Test func omittedNilMembersAsJSONEncoderWritesThem() throws {
    let everything = JSONValueDecoderTests.everything
    let reference = try JSONPatch.apply(
      [
        .replace(path: JSONPointer("/shapes/0"), value: .string("point")),
        .replace(path: JSONPointer("/shapes/2"), value: .object(["labelled": .string("x")])),
        .replace(path: JSONPointer("/when"), value: .string("2026-09-21T14:13:20.000Z")),
      ], to: JSONValueEncoderTests.reference(everything))
    #expect(try JSONValueEncoder.encode(everything, nilMembers: .omitted) == reference)
    #expect(try JSONValue(encoding: everything) == reference)
    #expect(try JSONValue(encoding: everything).decode(JSONValueDecoderTests.Everything.self) == everything)
  }

  /// A value that encodes nothing is an empty object, as inside a
  /// `JSONEncoder` document; a top-level `nil` is `null`.
  @Test func valuesThatEncodeLittle() throws {
    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    #expect(try JSONValue(encoding: Nothing()) == .object([:]))
    #expect(try JSONValue(encoding: Int?.none) == .null)
    #expect(try JSONValue(encoding: 2.0) == .int(2))
  }

  /// Bytes are parsed, then decoded: not JSON is a `JSONParseError` naming
  /// the byte, the wrong shape a `DecodingError` naming the path.
  @Test func decodesFromBytes() throws {
    struct Receipt: Decodable, Equatable { let id: Int }
    #expect(try JSONValueDecoder.decode(Receipt.self, fromJSON: Array(#"{"id":7,"x":[]}"#.utf8)) == Receipt(id: 7))
    #expect(try JSONValueDecoder.decode(Receipt.self, fromJSON: Data(#" {"id":7.0} "#.utf8)) == Receipt(id: 7))
    #expect(throws: JSONParseError(offset: 6, reason: .unexpected(found: UInt8(ascii: "}"), expected: "a JSON value")))
    {
      try JSONValueDecoder.decode(Receipt.self, fromJSON: Array(#"{"id":}"#.utf8))
    }
    do {
      _ = try JSONValueDecoder.decode(Receipt.self, fromJSON: Array(#"{"id":"seven"}"#.utf8))
      Issue.record("decoded a string as an Int")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["id"])
    }
  }

  /// A literal is read as `JSONDecoder` reads a `JSONValue`: a number with a
  /// whole value that fits `Int` is an integer however it is written.
  @Test(arguments: [
    "3", "3.0", "-0.0", "1e2", "1E18", "1.5", "1e19", "9223372036854775807", "9223372036854775808",
    "3.0000000000000001", #"{"a":[1.0,2.5,{"b":1e3}]}"#, #""NaN""#, "null", "true", #" "x\/y" "#,
  ])
  func literalsAsJSONDecoderReadsThem(text: String) throws {
    let reference = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(JSONValue(jsonText: text) == reference)
  }

  @Test(arguments: ["", "tru", "[1,]", "01", "1E400", #"{"a":1"#, "NaN"])
  func notLiterals(text: String) {
    #expect(JSONValue(jsonText: text) == nil)
  }

  /// A value's description is its canonical text.
  @Test func descriptionIsTheCanonicalText() {
    let value = JSONValue.object(["b": .array([.string("q\"\n"), .double(1.0), .null]), "a": .bool(true)])
    #expect(value.description == #"{"a":true,"b":["q\"\n",1.0,null]}"#)
    #expect("\(value)" == CanonicalJSON.text(value))
    if case .object(let object) = value { #expect(object.description == CanonicalJSON.text(value)) }
  }
}
