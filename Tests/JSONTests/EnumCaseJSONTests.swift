import FoundationEssentials
import JSON
import TestSupport
import Testing

/// Enums as JSON a person would write (`EnumCaseJSON`, docs/PROTOCOL.md,
/// "Enumerations as JSON"): the encoder writes the short forms, the decoder
/// reads them and Foundation's long ones, and every value reads back as
/// itself.
@Suite(.ownThreads) struct EnumCaseJSONTests {
  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  enum Status: Codable, Equatable {
    case idle
    case failed(String)
    case saved(Point)
    case note(String?)
    case pair(Int, String)
    case move(Int, to: String)
    case element(id: Int, action: Child)
    case list([Int])
    case optionalPair(Int?, Int?)
    case listThenOptional([Int], Int?)
    case empty([String: Int])
    case wrapped(Wrapper)
    case labelled(x: Int?)
  }

  enum Child: Codable, Equatable {
    case tapped
    case set(Int)
  }

  enum Parent: Codable, Equatable {
    case child(Child)
    case status(Status)
  }

  /// A payload whose only member is named like an unlabelled value.
  struct Wrapper: Codable, Equatable {
    var _0: Int
  }

  enum Colour: String, Codable, Equatable {
    case red, green
  }

  struct Holder: Codable, Equatable {
    var status: Status
    var statuses: [Status]
    var byName: [String: Child]
    var colour: Colour
    var maybe: Child?
  }

  static let forms: [(Status, String)] = [
    (.idle, #""idle""#),
    (.failed("boom"), #"{"failed":"boom"}"#),
    (.saved(Point(x: 1, y: 2)), #"{"saved":{"x":1,"y":2}}"#),
    (.note(nil), #"{"note":null}"#),
    (.note("n"), #"{"note":"n"}"#),
    (.pair(1, "x"), #"{"pair":[1,"x"]}"#),
    (.move(3, to: "top"), #"{"move":{"_0":3,"to":"top"}}"#),
    (.element(id: 3, action: .set(4)), #"{"element":{"action":{"set":4},"id":3}}"#),
    (.list([1, 2]), #"{"list":[1,2]}"#),
    (.optionalPair(nil, 2), #"{"optionalPair":[null,2]}"#),
    (.listThenOptional([1, 2], nil), #"{"listThenOptional":[[1,2],null]}"#),
    (.empty([:]), #"{"empty":{"_0":{}}}"#),
    (.empty(["a": 1]), #"{"empty":{"a":1}}"#),
    (.wrapped(Wrapper(_0: 5)), #"{"wrapped":{"_0":{"_0":5}}}"#),
    (.labelled(x: nil), #"{"labelled":{"x":null}}"#),
  ]

  @Test(arguments: forms)
  func writesTheShortFormAndReadsItBack(_ status: Status, _ text: String) throws {
    let json = try JSONValueEncoder.encode(status)
    #expect(CanonicalJSON.text(json) == text)
    #expect(try JSONValueDecoder.decode(Status.self, from: json) == status)
  }

  /// Foundation's form, as journals and scripts written before the mapping
  /// hold it, still reads.
  @Test(arguments: forms)
  func readsFoundationsLongForm(_ status: Status, _ text: String) throws {
    let long = try JSONParser.parse(Array(FoundationJSON.encoder().encode(status)))
    #expect(try JSONValueDecoder.decode(Status.self, from: long) == status)
  }

  @Test func nestedEnumsAreShortAtEveryLevel() throws {
    let values: [(Parent, String)] = [
      (.child(.tapped), #"{"child":"tapped"}"#),
      (.child(.set(3)), #"{"child":{"set":3}}"#),
      (.status(.failed("x")), #"{"status":{"failed":"x"}}"#),
      (.status(.idle), #"{"status":"idle"}"#),
    ]
    for (value, text) in values {
      let json = try JSONValueEncoder.encode(value)
      #expect(CanonicalJSON.text(json) == text)
      #expect(try JSONValueDecoder.decode(Parent.self, from: json) == value)
      #expect(try JSONValueDecoder.decode(Parent.self, from: JSONParser.parse(Array(text.utf8))) == value)
    }
    let old = #"{"child":{"_0":{"set":{"_0":3}}}}"#
    #expect(try JSONValueDecoder.decode(Parent.self, from: JSONParser.parse(Array(old.utf8))) == .child(.set(3)))
    let mixed = #"{"child":{"_0":"tapped"}}"#
    #expect(try JSONValueDecoder.decode(Parent.self, from: JSONParser.parse(Array(mixed.utf8))) == .child(.tapped))
  }

  @Test func enumsInsideStructsArraysDictionariesAndOptionals() throws {
    let holder = Holder(
      status: .idle, statuses: [.failed("a"), .idle], byName: ["k": .tapped], colour: .green, maybe: .set(1))
    let json = try JSONValueEncoder.encode(holder)
    #expect(
      CanonicalJSON.text(json)
        == #"{"byName":{"k":"tapped"},"colour":"green","maybe":{"set":1},"status":"idle","statuses":[{"failed":"a"},"idle"]}"#
    )
    #expect(try JSONValueDecoder.decode(Holder.self, from: json) == holder)
    let long = try JSONParser.parse(Array(FoundationJSON.encoder().encode(holder)))
    #expect(try JSONValueDecoder.decode(Holder.self, from: long) == holder)
  }

  /// Where nil members are left out, an optional value's case can be just
  /// its name, and reads back.
  @Test func omittedNilValuesReadBack() throws {
    let json = try JSONValue(encoding: Status.note(nil))
    #expect(json == .string("note"))
    #expect(try json.decode(Status.self) == .note(nil))
    #expect(try JSONValue(encoding: Status.labelled(x: nil)) == .string("labelled"))
    #expect(try JSONValue(encoding: Status.labelled(x: nil)).decode(Status.self) == .labelled(x: nil))
  }

  @Test func unknownCasesAndWrongShapesAreRefused() throws {
    for text in [#""busy""#, #"3"#, #"{"failed":{"reason":"x"},"idle":{}}"#, #"{"pair":[1]}"#, #"{"move":5}"#] {
      #expect(throws: DecodingError.self, "\(text)") {
        try JSONValueDecoder.decode(Status.self, from: JSONParser.parse(Array(text.utf8)))
      }
    }
    // A string is a case's name only where an enum is read.
    #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Point.self, from: .string("x")) }
  }
}
