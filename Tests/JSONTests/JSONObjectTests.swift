import FoundationEssentials
import JSON
import TestSupport
import Testing

/// `JSONObject` behaves as a `[String: JSONValue]` does, and keeps its
/// members in the order of their keys' UTF-8 bytes.
@Suite(.ownThreads) struct JSONObjectTests {
  /// Keys that sort differently by bytes than by Swift's `String` order or
  /// by length, and one pair Swift calls equal that JSON does not.
  static let keys = ["b", "a", "ab", "", "B", "é", "e\u{301}", "z", "aa", "ä", "_", "0", "ü"]

  @Test func membersAreInTheOrderOfTheirKeysBytes() {
    var object = JSONObject()
    for (index, key) in Self.keys.enumerated() { object[key] = .int(index) }
    let expected = Self.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    #expect(Array(object.keys) == expected)
    #expect(object.count == Self.keys.count, "é and e + U+0301 are two keys")
    for (index, key) in Self.keys.enumerated() { #expect(object[key] == .int(index)) }
    #expect(object["missing"] == nil)
  }

  /// Random assignments, removals and updates agree with a dictionary keyed
  /// by the keys' bytes.
  @Test func changesAgreeWithADictionary() {
    var generator = SplitMix64(seed: 7)
    var object = JSONObject()
    var dictionary: [[UInt8]: JSONValue] = [:]
    for step in 0..<2_000 {
      let key = Self.keys[Int(generator.next() % UInt64(Self.keys.count))]
      switch generator.next() % 4 {
      case 0:
        object[key] = nil
        dictionary[Array(key.utf8)] = nil
      case 1:
        #expect(object.removeValue(forKey: key) == dictionary.removeValue(forKey: Array(key.utf8)))
      case 2:
        #expect(
          object.updateValue(.int(step), forKey: key) == dictionary.updateValue(.int(step), forKey: Array(key.utf8)))
      default:
        object[key] = .string("\(step)")
        dictionary[Array(key.utf8)] = .string("\(step)")
      }
      #expect(object.count == dictionary.count)
      #expect(zip(object.keys, object.keys.dropFirst()).allSatisfy { JSONObject.order($0, $1) < 0 })
      for member in object { #expect(dictionary[Array(member.key.utf8)] == member.value) }
    }
  }

  @Test func sortingKeepsTheLastValueAndNamesTheFirstRepetition() {
    let (object, duplicate) = JSONObject.sorting([
      ("b", .int(1)), ("a", .int(2)), ("b", .int(3)), ("c", .int(4)), ("a", .int(5)),
    ])
    #expect(object == ["a": .int(5), "b": .int(3), "c": .int(4)])
    #expect(duplicate == 2, "the second \"b\" is the first key given again")
    #expect(JSONObject.sorting([("b", .null), ("a", .null)]).duplicate == nil)
    #expect(JSONObject.sorting([]).object.isEmpty)
  }

  /// Members given in any order, some keys more than once, small objects
  /// (sorted by insertion) and large: the last value given for a key wins,
  /// as assigning them one by one into a dictionary would.
  @Test(arguments: [2, 5, 32, 33, 200])
  func membersGivenInAnyOrderKeepTheLastValuePerKey(count: Int) {
    var generator = SplitMix64(seed: UInt64(count))
    for _ in 0..<50 {
      var members: [JSONObject.Element] = []
      var expected: [String: JSONValue] = [:]
      for step in 0..<count {
        let key = "k\(generator.next() % UInt64(count * 3 / 4 + 1))"
        members.append((key, .int(step)))
        expected[key] = .int(step)
      }
      let object = JSONObject(members)
      #expect(object == JSONObject(expected))
      #expect(zip(object.keys, object.keys.dropFirst()).allSatisfy { JSONObject.order($0, $1) < 0 })
      let (sorted, duplicate) = JSONObject.sorting(members)
      #expect(sorted == object)
      var seen = Set<String>()
      #expect(duplicate == members.firstIndex { !seen.insert($0.key).inserted })
    }
  }

  @Test func equalObjectsAreEqualAndHashAlikeHoweverBuilt() {
    let literal: JSONObject = ["x": .int(1), "y": .array([.bool(true)]), "z": .object(["n": .null])]
    var assigned = JSONObject()
    assigned["z"] = .object(["n": .null])
    assigned["x"] = .int(1)
    assigned["y"] = .array([.bool(true)])
    let converted = JSONObject(["y": .array([.bool(true)]), "z": .object(["n": .null]), "x": .int(1)])
    #expect(literal == assigned)
    #expect(literal == converted)
    #expect(Set([literal, assigned, converted]).count == 1)
    assigned["x"] = .int(2)
    #expect(literal != assigned)
    #expect(literal != ["x": .int(1), "y": .array([.bool(true)])])
    #expect(literal.mapValues { _ in .null } == ["x": .null, "y": .null, "z": .null])
  }

  @Test func codableRoundTripsAndDescribesInKeyOrder() throws {
    let object: JSONObject = ["b": .int(1), "a": .object(["c": .string("d")])]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let bytes = try encoder.encode(object)
    #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":{"c":"d"},"b":1}"#)
    #expect(try JSONDecoder().decode(JSONObject.self, from: bytes) == object)
    #expect(object.description == #"{"a":{"c":"d"},"b":1}"#)
    #expect(JSONValue.object(object).description == object.description)
  }
}
