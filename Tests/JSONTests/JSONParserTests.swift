import JSON
import Testing

struct ParseFailure: Sendable, CustomTestStringConvertible {
  let input: [UInt8]
  let message: String
  var testDescription: String { message }

  init(_ text: String, _ message: String) {
    self.input = Array(text.utf8)
    self.message = message
  }

  init(bytes: [UInt8], _ message: String) {
    self.input = bytes
    self.message = message
  }
}

let parseFailures = [
  ParseFailure("", "unexpected end of input at byte 0: expected a JSON value"),
  ParseFailure("  ", "unexpected end of input at byte 2: expected a JSON value"),
  ParseFailure(#"{"a":1 "b":2}"#, #"expected ',' or '}' at byte 7, found '"'"#),
  ParseFailure("[1,2,]", "expected a JSON value at byte 5, found ']'"),
  ParseFailure(#"{"a":1,}"#, #"expected '"' to begin a member name at byte 7, found '}'"#),
  ParseFailure("{a:1}", #"expected '"' to begin a member name at byte 1, found 'a'"#),
  ParseFailure(#"{"a" 1}"#, "expected ':' after the member name at byte 5, found '1'"),
  ParseFailure("[1 2]", "expected ',' or ']' at byte 3, found '2'"),
  ParseFailure("[1,", "unexpected end of input at byte 3: expected a JSON value"),
  ParseFailure(#"{"a":1"#, "unexpected end of input at byte 6: expected ',' or '}'"),
  ParseFailure(#"{"a":1}x"#, "expected the end of the input after the JSON value at byte 7, found 'x'"),
  ParseFailure("// comment\n1", "expected a JSON value at byte 0, found '/'"),
  ParseFailure("'a'", #"expected a JSON value at byte 0, found "'""#),
  ParseFailure("tru", "unexpected end of input at byte 3: expected 'true'"),
  ParseFailure("nul1", "expected 'null' at byte 3, found '1'"),
  ParseFailure("NaN", "expected a JSON value at byte 0, found 'N'"),
  ParseFailure("-Infinity", "expected a digit at byte 1, found 'I'"),
  ParseFailure("01", "expected '.', 'e' or the end of the number (no leading zeros) at byte 1, found '1'"),
  ParseFailure("1.", "unexpected end of input at byte 2: expected a digit after '.'"),
  ParseFailure(".5", "expected a JSON value at byte 0, found '.'"),
  ParseFailure("1e+", "unexpected end of input at byte 3: expected a digit in the exponent"),
  ParseFailure("+1", "expected a JSON value at byte 0, found '+'"),
  ParseFailure("1e400", "number 1e400 at byte 0 is out of the range of a 64-bit float"),
  ParseFailure("[-1e999]", "number -1e999 at byte 1 is out of the range of a 64-bit float"),
  ParseFailure(#""abc"#, #"unexpected end of input at byte 4: expected '"' to close the string"#),
  ParseFailure("\"a\tb\"", #"control character 0x09 in a string at byte 2: write it escaped (\n, \t, \u00XX)"#),
  ParseFailure(#""\q""#, #"invalid escape at byte 1: expected one of \" \\ \/ \b \f \n \r \t \uXXXX"#),
  ParseFailure(#""\u12G4""#, "expected a hexadecimal digit at byte 5, found 'G'"),
  ParseFailure(
    #"["\ud800"]"#,
    #"unpaired UTF-16 surrogate \uD800 at byte 2: a high surrogate (D800–DBFF) must be followed by a \u escape of a low one (DC00–DFFF)"#
  ),
  ParseFailure(
    #""\ud800\u0041""#,
    #"unpaired UTF-16 surrogate \uD800 at byte 1: a high surrogate (D800–DBFF) must be followed by a \u escape of a low one (DC00–DFFF)"#
  ),
  ParseFailure(
    #""\udc00""#,
    #"unpaired UTF-16 surrogate \uDC00 at byte 1: a high surrogate (D800–DBFF) must be followed by a \u escape of a low one (DC00–DFFF)"#
  ),
  ParseFailure(#"{"a":1,"a":2}"#, #"duplicate member "a" at byte 7: each key may appear once in an object"#),
  ParseFailure(
    bytes: [0x22, 0xC0, 0xAF, 0x22],
    "invalid UTF-8 at byte 1: JSON text must be UTF-8 (escape other data, e.g. as base64)"),
  ParseFailure(
    bytes: [0x22, 0xE0, 0x80, 0x80, 0x22],
    "invalid UTF-8 at byte 2: JSON text must be UTF-8 (escape other data, e.g. as base64)"),
  ParseFailure(
    bytes: [0x22, 0xED, 0xA0, 0x80, 0x22],
    "invalid UTF-8 at byte 2: JSON text must be UTF-8 (escape other data, e.g. as base64)"),
  ParseFailure(
    bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
    "invalid UTF-8 at byte 2: JSON text must be UTF-8 (escape other data, e.g. as base64)"),
  ParseFailure(
    bytes: [0x22, 0x61, 0x80, 0x22],
    "invalid UTF-8 at byte 2: JSON text must be UTF-8 (escape other data, e.g. as base64)"),
  ParseFailure(bytes: [0x22, 0xE2, 0x82], "unexpected end of input at byte 3: expected the rest of a UTF-8 sequence"),
  ParseFailure(bytes: [0xEF, 0xBB, 0xBF, 0x31], "expected a JSON value at byte 0, found 0xEF"),
]

@Suite struct JSONParserTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try json(
      " {\"null\":null,\"t\":true,\"f\":false,\"i\":-42,\"d\":2.5,\"e\":1E2,\"s\":\"x\",\"a\":[],\"o\":{}}\r\n\t")
    #expect(
      value
        == .object([
          "null": .null, "t": .bool(true), "f": .bool(false), "i": .int(-42), "d": .double(2.5),
          "e": .double(100), "s": .string("x"), "a": .array([]), "o": .object([:]),
        ]))
  }

  @Test func scalarsAreDocumentsToo() throws {
    #expect(try json("17") == .int(17))
    #expect(try json(#""x""#) == .string("x"))
    #expect(try json("null") == .null)
  }

  @Test func integersThatFitIntStayIntegers() throws {
    #expect(try json("9223372036854775807") == .int(.max))
    #expect(try json("-9223372036854775808") == .int(.min))
    #expect(try json("9223372036854775808") == .double(9_223_372_036_854_775_808))
    #expect(try json("-0") == .int(0))
    #expect(try json("1.0") == .double(1))
    #expect(try json("-0.0") == .double(-0.0))
    #expect(try json("1e-400") == .double(0))
    #expect(try json("123456789012345678901234567890") == .double(1.2345678901234568e29))
  }

  @Test func escapesDecode() throws {
    #expect(try json(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#) == .string("\"\\/\u{8}\u{C}\n\r\tAé€😀"))
    #expect(try json(#""plain é 😀 then \n""#) == .string("plain é 😀 then \n"))
    #expect(try json(#"{"\u0061":1}"#) == .object(["a": .int(1)]))
  }

  @Test(arguments: parseFailures)
  func rejectsWithOffsetAndExpectation(_ failure: ParseFailure) {
    do {
      let value = try JSONParser.parse(failure.input)
      Issue.record("parsed \(value), expected: \(failure.message)")
    } catch {
      #expect(error.description == failure.message)
    }
  }

  @Test func nestingIsLimited() throws {
    let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(throws: Never.self) { try JSONParser.parse(ok.utf8) }
    let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    #expect(throws: JSONParseError(offset: 512, reason: .nestingTooDeep(limit: 512))) {
      try JSONParser.parse(tooDeep.utf8)
    }
    let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
    #expect(throws: JSONParseError(offset: 512, reason: .nestingTooDeep(limit: 512))) {
      try JSONParser.parse(hostile)
    }
    let objects = String(repeating: #"{"a":"#, count: 600)
    #expect(throws: JSONParseError(offset: 5 * 512, reason: .nestingTooDeep(limit: 512))) {
      try JSONParser.parse(objects.utf8)
    }
    #expect(throws: JSONParseError.self) { try JSONParser.parse("[[1]]".utf8, maximumDepth: 1) }
  }

  @Test func readsNonContiguousCollections() throws {
    let bytes = Array(#"{"a":[1,2]}"#.utf8)
    #expect(try JSONParser.parse(bytes.lazy.map { $0 }) == .object(["a": .array([.int(1), .int(2)])]))
  }

  /// Garbage, truncations and corruptions of valid documents: the parser
  /// must only ever return a value or throw, and what it returns must survive
  /// a canonical round trip.
  @Test func neverCrashesOnHostileInput() throws {
    var random = RandomJSON(seed: 2024)
    let alphabet =
      Array(#"{}[]:,"\/-+.eE0123456789 truefalsnu"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
    var accepted = 0
    for round in 0..<4_000 {
      var input: [UInt8]
      switch round % 4 {
      case 0:
        input = (0..<random.int(0...40)).map { _ in UInt8.random(in: 0...255, using: &random.generator) }
      case 1:
        input = (0..<random.int(0...40)).map { _ in random.pick(alphabet) }
      case 2:
        let document = CanonicalJSON.encode(random.document())
        input = Array(document.prefix(random.int(0...document.count)))
      default:
        input = CanonicalJSON.encode(random.document())
        for _ in 0..<random.int(1...3) where !input.isEmpty {
          let index = random.int(0...input.count - 1)
          switch random.int(0...2) {
          case 0: input[index] = random.pick(alphabet)
          case 1: input.remove(at: index)
          default: input.insert(random.pick(alphabet), at: index)
          }
        }
      }
      do {
        let value = try JSONParser.parse(input)
        accepted += 1
        #expect(try JSONParser.parse(CanonicalJSON.encode(value)) == value)
      } catch {
        #expect((0...input.count).contains(error.offset), "offset \(error.offset) outside \(input.count) bytes")
        #expect(!error.description.isEmpty)
      }
    }
    #expect(accepted > 100)
  }
}
