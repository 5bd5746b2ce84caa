import FoundationEssentials
import JSON
import TestSupport
import Testing

/// `JSONValueDecoder` decodes what `JSONDecoder`, set to the JSON module's
/// (`FoundationJSON.decoder()`), decodes from the same value's bytes, and
/// refuses what it refuses, naming the coding path.
@Suite(.ownThreads) struct JSONValueDecoderTests {
  enum Shape: Codable, Equatable {
    case point
    case circle(radius: Double)
    case labelled(String, tags: [String]?)
  }

  struct Everything: Codable, Equatable {
    var flag: Bool
    var name: String
    var count: Int
    var small: Int8
    var big: UInt64
    var ratio: Double
    var single: Float
    var missing: String?
    var present: Int?
    var nested: [[Int]]
    var byName: [String: Int]
    var byNumber: [Int: String]
    var when: Date
    var bytes: Data
    var link: URL
    var shapes: [Shape]
    var id: UUID
    var optionals: [Int?]
  }

  static let everything = Everything(
    flag: true, name: "é\n😀", count: -42, small: 7, big: UInt64(Int.max), ratio: 0.1, single: 2.5,
    missing: nil, present: 3, nested: [[1, 2], [], [3]], byName: ["a": 1, "b": 2], byNumber: [1: "one", 20: "twenty"],
    when: Date(timeIntervalSince1970: 1_790_000_000), bytes: Data([0, 1, 254, 255]),
    link: URL(string: "https://example.com/a?b=c")!, shapes: [.point, .circle(radius: 1.5), .labelled("x", tags: nil)],
    id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, optionals: [1, nil, 3])

  /// What the reference decoder makes of `value`.
  func reference<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
    try FoundationJSON.decoder().decode(type, from: Data(CanonicalJSON.encode(value)))
  }

  /// Its own encoding, and the reference encoder's (with Foundation's shape
  /// of enums), which the reference decoder reads alike.
  @Test func decodesWhatItsEncodingHolds() throws {
    let value = try CanonicalJSON.value(of: Self.everything)
    #expect(try JSONValueDecoder.decode(Everything.self, from: value) == Self.everything)
    let foundation = try JSONValueEncoderTests.reference(Self.everything)
    #expect(try JSONValueDecoder.decode(Everything.self, from: foundation) == Self.everything)
    #expect(try reference(Everything.self, foundation) == Self.everything)
  }

  @Test func readsNumbersAsJSONDecoderDoes() throws {
    #expect(try JSONValueDecoder.decode(Int.self, from: .double(3.0)) == 3)
    #expect(try JSONValueDecoder.decode(Double.self, from: .int(3)) == 3.0)
    #expect(try JSONValueDecoder.decode(Double.self, from: .string("Infinity")) == .infinity)
    #expect(try JSONValueDecoder.decode(Double.self, from: .string("-Infinity")) == -.infinity)
    #expect(try JSONValueDecoder.decode(Double.self, from: .string("NaN")).isNaN)
    #expect(try JSONValueDecoder.decode(Decimal.self, from: .double(0.1)) == Decimal(string: "0.1"))
    for value: JSONValue in [.double(3.5), .int(300), .string("3"), .null, .bool(true)] {
      #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(UInt8.self, from: value) }
      #expect(throws: DecodingError.self) { try reference(UInt8.self, value) }
    }
    #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Float.self, from: .double(1e300)) }
    #expect(throws: DecodingError.self) { try reference(Float.self, .double(1e300)) }
  }

  @Test func refusesWhatJSONDecoderRefusesAndNamesThePath() throws {
    let valid = try CanonicalJSON.value(of: Self.everything)
    guard case .object(var members) = valid else {
      Issue.record("not an object")
      return
    }
    let cases: [(String, JSONValue?, String)] = [
      ("count", nil, "count"),
      ("count", .string("7"), "count"),
      ("name", .null, "name"),
      ("when", .string("yesterday"), "when"),
      ("bytes", .string("not base64!"), "bytes"),
      ("nested", .array([.array([.int(1), .string("2")])]), "nested/Index 0/Index 1"),
      ("shapes", .array([.object(["square": .object([:])])]), "shapes/Index 0"),
      ("byNumber", .object(["x": .string("?")]), "byNumber"),
    ]
    for (key, replacement, path) in cases {
      var broken = members
      broken[key] = replacement
      let value = JSONValue.object(broken)
      #expect(throws: DecodingError.self, "\(key) = \(String(describing: replacement))") {
        try reference(Everything.self, value)
      }
      do {
        _ = try JSONValueDecoder.decode(Everything.self, from: value)
        Issue.record("\(key) = \(String(describing: replacement)) decoded")
      } catch let error as DecodingError {
        #expect(Self.path(of: error).hasPrefix(path), "\(error)")
      }
    }
    members["extra"] = .int(1)
    #expect(try JSONValueDecoder.decode(Everything.self, from: .object(members)) == Self.everything)
  }

  @Test func anArrayThatEndsEarlyIsAMissingValue() {
    #expect(throws: DecodingError.self) { try JSONValueDecoder.decode([Int].self, from: .object([:])) }
    struct Pair: Decodable {
      var first: Int
      var second: Int
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(Int.self)
        second = try container.decode(Int.self)
      }
    }
    #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Pair.self, from: .array([.int(1)])) }
    #expect(throws: DecodingError.self) { try reference(Pair.self, .array([.int(1)])) }
  }

  static func path(of error: DecodingError) -> String {
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found): context = found
    case .keyNotFound(let key, let found):
      return (found.codingPath + [key]).map(\.stringValue).joined(separator: "/")
    @unknown default: return ""
    }
    return context.codingPath.map(\.stringValue).joined(separator: "/")
  }
}
