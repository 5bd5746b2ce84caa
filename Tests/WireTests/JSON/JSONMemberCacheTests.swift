import ComposableCore
import Synchronization
import Testing
import Wire

/// `JSONValueEncoder.encode(_:reusing:)` gives what `encode(_:)` gives, and
/// encodes again only the top-level members that changed.
@Suite struct JSONMemberCacheTests {
  struct Root: Encodable {
    var counted: Counted
    var other: Counted
    var optional: Counted?
    var notEquatable: Opaque
    var number = 1
  }

  /// Counts its encodings, by label.
  struct Counted: Encodable, Equatable {
    var label: String
    var values: [Int]
    static let encodings = Mutex([String: Int]())
    func encode(to encoder: any Encoder) throws {
      Self.encodings.withLock { $0[label, default: 0] += 1 }
      var container = encoder.singleValueContainer()
      try container.encode(values)
    }
  }

  /// Not Equatable: compared never, encoded every time.
  struct Opaque: Encodable {
    var value: Int
  }

  static func encodings(_ label: String) -> Int { Counted.encodings.withLock { $0[label, default: 0] } }

  @Test func onlyChangedMembersAreEncodedAgain() throws {
    let cache = JSONMemberCache()
    var root = Root(
      counted: Counted(label: "a1", values: [1, 2]), other: Counted(label: "b1", values: [3]),
      optional: Counted(label: "o1", values: [5]),
      notEquatable: Opaque(value: 1))
    let first = try JSONValueEncoder.encode(root, reusing: cache)
    #expect(first == (try JSONValueEncoder.encode(root)))
    #expect(cache.encodedMembers == 4)

    root.other.values.append(4)
    root.notEquatable.value = 2
    let before = Self.encodings("a1")
    let second = try JSONValueEncoder.encode(root, reusing: cache)
    // `other` changed, and `notEquatable` cannot be compared.
    #expect(cache.encodedMembers == 2)
    #expect(Self.encodings("a1") == before)
    #expect(second == (try JSONValueEncoder.encode(root)))

    // A member that becomes nil is left out, and encoded again once back.
    let optional = root.optional
    root.optional = nil
    #expect(try JSONValueEncoder.encode(root, reusing: cache) == (try JSONValueEncoder.encode(root)))
    root.optional = optional
    #expect(try JSONValueEncoder.encode(root, reusing: cache) == (try JSONValueEncoder.encode(root)))
    #expect(cache.encodedMembers == 2)
  }

  class Base: Encodable, Equatable {
    var value: Int
    init(_ value: Int) { self.value = value }
    static func == (left: Base, right: Base) -> Bool { left.value == right.value }
  }
  final class Derived: Base {}

  struct Holding: Encodable {
    var base: Base
    var any: [String: Int]
  }

  /// A member whose value is an instance of a subclass of its declared
  /// type is compared with the `==` the declared type has, and a change
  /// to it is seen.
  @Test func aSubclassInstanceIsComparedAsItsDeclaredType() throws {
    let cache = JSONMemberCache()
    let holding = Holding(base: Derived(1), any: ["a": 1])
    #expect(try JSONValueEncoder.encode(holding, reusing: cache) == .object(["base": .object(["value": .int(1)]), "any": .object(["a": .int(1)])]))
    #expect(try JSONValueEncoder.encode(holding, reusing: cache) == (try JSONValueEncoder.encode(holding)))
    let changed = Holding(base: Derived(2), any: ["a": 1])
    #expect(try JSONValueEncoder.encode(changed, reusing: cache) == .object(["base": .object(["value": .int(2)]), "any": .object(["a": .int(1)])]))
    #expect(cache.encodedMembers == 1)
  }

  struct Failing: Encodable, Equatable {
    var fails: Bool
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws {
      if fails { throw Refused() }
      var container = encoder.singleValueContainer()
      try container.encode("fine")
    }
  }

  struct Holder: Encodable, Equatable {
    var part: Failing
    var counted: Counted
  }

  /// An encoding that throws leaves the cache as the last good one left it.
  @Test func aFailedEncodingKeepsTheCache() throws {
    let cache = JSONMemberCache()
    let good = Holder(part: Failing(fails: false), counted: Counted(label: "c1", values: [1]))
    _ = try JSONValueEncoder.encode(good, reusing: cache)
    #expect(throws: Failing.Refused.self) {
      try JSONValueEncoder.encode(Holder(part: Failing(fails: true), counted: good.counted), reusing: cache)
    }
    #expect(try JSONValueEncoder.encode(good, reusing: cache) == .object(["part": .string("fine"), "counted": .array([.int(1)])]))
    #expect(cache.encodedMembers == 0)
  }
}
