import FoundationEssentials
import JSON
import Testing

@Suite struct JSONPointerTests {
  /// RFC 6901 section 5.
  static let rfcDocument = #"""
    {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}
    """#

  @Test(arguments: [
    (
      "",
      #"{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}"#
    ),
    ("/foo", #"["bar", "baz"]"#), ("/foo/0", #""bar""#), ("/", "0"), ("/a~1b", "1"), ("/c%d", "2"), ("/e^f", "3"),
    ("/g|h", "4"), (#"/i\j"#, "5"), (#"/k"l"#, "6"), ("/ ", "7"), ("/m~0n", "8"),
  ])
  func resolvesTheRFC6901Examples(_ string: String, _ expected: String) throws {
    let document = try json(Self.rfcDocument)
    #expect(try JSONPointer(string).resolve(in: document) == json(expected))
  }

  @Test func escapesBothWays() throws {
    let pointer = JSONPointer(tokens: ["a/b", "m~n", "~1", "/0", "", "plain"])
    #expect(pointer.description == "/a~1b/m~0n/~01/~10//plain")
    #expect(try JSONPointer(pointer.description) == pointer)
    // "~01" is "~1", not "/": ~1 is decoded in the same pass as ~0.
    #expect(try JSONPointer("/~01").tokens == ["~1"])
    #expect(try JSONPointer("").tokens == [])
    #expect(try JSONPointer("/").tokens == [""])
    #expect(try JSONPointer("//").tokens == ["", ""])
    #expect(JSONPointer.root.description == "")
  }

  @Test func rejectsMalformedPointers() {
    #expect(throws: JSONPointerError.missingLeadingSlash("a/b")) { try JSONPointer("a/b") }
    #expect(throws: JSONPointerError.invalidEscape("/a~2")) { try JSONPointer("/a~2") }
    #expect(throws: JSONPointerError.invalidEscape("/a~")) { try JSONPointer("/a~") }
    #expect(
      JSONPointerError.missingLeadingSlash("a/b").description
        == #"JSON pointer "a/b" must be empty (the whole document) or start with '/': write "/a/b""#)
    #expect(
      JSONPointerError.invalidEscape("/a~2").description
        == #"invalid escape in JSON pointer "/a~2": '~' must be followed by '0' (for '~') or '1' (for '/')"#)
  }

  @Test func prefixesAndRelativePaths() throws {
    let a = try pointer("/a")
    let ab = try pointer("/a/b")
    #expect(JSONPointer.root.isPrefix(of: ab))
    #expect(a.isPrefix(of: ab))
    #expect(a.isPrefix(of: a))
    #expect(!ab.isPrefix(of: a))
    #expect(!a.isPrefix(of: try pointer("/ab")))
    #expect(ab.relative(to: a) == JSONPointer(tokens: ["b"]))
    #expect(ab.relative(to: ab) == .root)
    #expect(a.relative(to: ab) == nil)
    #expect(ab.parent == a)
    #expect(JSONPointer.root.parent == nil)
    #expect(a.appending(index: 3).description == "/a/3")
    #expect(JSONPointer(tokens: ["b"]).rebased(onto: a) == ab)
  }

  @Test(
    arguments: [
      ("0", 0), ("7", 7), ("10", 10), ("9223372036854775807", Int.max), ("01", nil), ("00", nil), ("-1", nil),
      ("+1", nil), ("", nil), ("1e2", nil), ("1.0", nil), ("-", nil), (" 1", nil), ("9223372036854775808", nil),
    ] as [(String, Int?)])
  func arrayIndicesAreCanonicalDecimal(_ token: String, _ index: Int?) {
    #expect(JSONPointer.arrayIndex(token) == index)
  }

  @Test func resolutionErrorsNameTheContainer() throws {
    let document = try json(Self.rfcDocument)
    let cases: [(String, String)] = [
      ("/foo/2", #"index 2 is out of range for the array of 2 elements at "/foo""#),
      (
        "/foo/01",
        #""01" is not an index for the array of 2 elements at "/foo": use decimal digits without leading zeros"#
      ),
      (
        "/foo/-",
        #""-" (past the end) names no element of the array of 2 elements at "/foo"; it is allowed only as the target of add, move and copy"#
      ),
      ("/nope", #"no member "nope" in the object at the document root"#),
      ("/foo/0/x", #""/foo/0" is a string, not an object or array, so it has no member "x""#),
    ]
    for (string, message) in cases {
      do {
        let value = try JSONPointer(string).resolve(in: document)
        Issue.record("\(string) resolved to \(value)")
      } catch {
        #expect(error.description == message)
      }
    }
    #expect(try pointer("/nope").value(in: document) == nil)
  }

  @Test func codesAsItsString() throws {
    let pointer = JSONPointer(tokens: ["a/b", "0"])
    let data = try JSONEncoder().encode([pointer])
    #expect(String(decoding: data, as: UTF8.self) == #"["\/a~1b\/0"]"#)
    #expect(try JSONDecoder().decode([JSONPointer].self, from: data) == [pointer])
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([JSONPointer].self, from: Data(#"["a"]"#.utf8)) }
  }
}
