import ComposableCore
import JSON
import Synchronization
import Testing

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

  /// A changed member's comparison is made for its new value (from the `==`
  /// found for its type the first time): a member that goes back and forth
  /// is encoded each time it changes, and reused each time it does not.
  @Test func aMemberThatChangesBackAndForthIsComparedWithItsLatestValue() throws {
    let cache = JSONMemberCache()
    var root = Root(
      counted: Counted(label: "f1", values: [1]), other: Counted(label: "f2", values: [2]), optional: nil,
      notEquatable: Opaque(value: 0))
    _ = try JSONValueEncoder.encode(root, reusing: cache)
    for values in [[1, 1], [1], [1], [1, 1], [1, 1], [1]] {
      let changed = root.counted.values != values
      root.counted.values = values
      let encoded = try JSONValueEncoder.encode(root, reusing: cache)
      #expect(encoded == (try JSONValueEncoder.encode(root)), "after \(values)")
      // `notEquatable` is encoded every time; `counted` only when it changed.
      #expect(cache.encodedMembers == (changed ? 2 : 1), "after \(values)")
    }
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
    #expect(
      try JSONValueEncoder.encode(holding, reusing: cache)
        == .object(["base": .object(["value": .int(1)]), "any": .object(["a": .int(1)])]))
    #expect(try JSONValueEncoder.encode(holding, reusing: cache) == (try JSONValueEncoder.encode(holding)))
    let changed = Holding(base: Derived(2), any: ["a": 1])
    #expect(
      try JSONValueEncoder.encode(changed, reusing: cache)
        == .object(["base": .object(["value": .int(2)]), "any": .object(["a": .int(1)])]))
    #expect(cache.encodedMembers == 1)
  }

  /// A part that holds an array and a nested struct, to see how deep the
  /// cache reaches.
  struct Part: Encodable, Equatable {
    var rows: [Counted]
    var inner: Inner
    var label = "part"
  }

  struct Inner: Encodable, Equatable {
    var counted: Counted
    var flag = false
  }

  struct Document: Encodable {
    var part: Part
  }

  static func rows(_ prefix: String, _ count: Int) -> [Counted] {
    (0..<count).map { Counted(label: "\(prefix)\($0)", values: [$0]) }
  }

  /// Inside a changed member, only what changed is encoded again: one row of
  /// an array of Equatable elements, not its siblings, and not a nested
  /// struct that stayed equal.
  @Test func aChangeDeepInsideAMemberEncodesOnlyWhatChanged() throws {
    let cache = JSONMemberCache()
    var document = Document(
      part: Part(rows: Self.rows("r", 50), inner: Inner(counted: Counted(label: "in", values: [7]))))
    _ = try JSONValueEncoder.encode(document, reusing: cache)
    let before = Counted.encodings.withLock { $0 }
    document.part.rows[20].values = [99]
    let changed = try JSONValueEncoder.encode(document, reusing: cache)
    let after = Counted.encodings.withLock { $0 }
    // Only row 20 was encoded again: not its 49 siblings, not `inner`. (Only
    // this test's labels: the suite's tests run in parallel.)
    let mine = Set(document.part.rows.map(\.label) + ["in"])
    #expect(after.filter { mine.contains($0.key) && before[$0.key] != $0.value }.keys.sorted() == ["r20"])
    #expect(changed == (try JSONValueEncoder.encode(document)))

    // A nested struct's change, a row removed and rows inserted in front:
    // always the same document as a fresh encoding.
    document.part.inner.flag = true
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
    document.part.rows.remove(at: 3)
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
    document.part.rows.insert(contentsOf: Self.rows("new", 2), at: 0)
    document.part.label = "moved"
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
    document.part.rows = []
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
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
    #expect(
      try JSONValueEncoder.encode(good, reusing: cache)
        == .object(["part": .string("fine"), "counted": .array([.int(1)])]))
    #expect(cache.encodedMembers == 0)
  }

  struct Row: Identifiable, Encodable, Equatable {
    var id: Int
    var counted: Counted
  }

  struct Rows: Encodable {
    var rows: IdentifiedArrayOf<Row>
  }

  /// An identified array (a chunked one) among 1,000 rows: one changed row
  /// is the only one encoded again, the JSON array keeps every other chunk
  /// of the last one (so the diff passes them without a look), and changes
  /// of every kind give what a fresh encoding gives.
  @Test func aChangedRowOfAChunkedArrayReencodesOneRowAndSharesTheOtherChunks() throws {
    let cache = JSONMemberCache()
    var document = Rows(
      rows: IdentifiedArrayOf(
        uniqueElements: (0..<1_000).map { Row(id: $0, counted: Counted(label: "k\($0)", values: [$0])) }))
    let first = try JSONValueEncoder.encode(document, reusing: cache)
    let before = Counted.encodings.withLock { $0 }
    document.rows[id: 700]?.counted.values = [-1]
    let second = try JSONValueEncoder.encode(document, reusing: cache)
    let after = Counted.encodings.withLock { $0 }
    let mine = Set(document.rows.map(\.counted.label))
    #expect(after.filter { mine.contains($0.key) && before[$0.key] != $0.value }.keys.sorted() == ["k700"])
    #expect(second == (try JSONValueEncoder.encode(document)))
    guard case .object(let old) = first, case .array(let oldRows)? = old["rows"],
      case .object(let new) = second, case .array(let newRows)? = new["rows"]
    else {
      Issue.record("expected rows arrays, got \(second)")
      return
    }
    let unshared = (0..<newRows.chunkCount).filter { !newRows.sharesChunk($0, with: oldRows) }
    #expect(unshared == [700 / JSONArray.chunkSize])

    document.rows.append(Row(id: 5_000, counted: Counted(label: "k5000", values: [])))
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
    document.rows.remove(id: 3)
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
    document.rows.insert(Row(id: 6_000, counted: Counted(label: "k6000", values: [1])), at: 100)
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
    document.rows.removeAll { $0.id > 64 }
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
    document.rows.removeAll()
    #expect(try JSONValueEncoder.encode(document, reusing: cache) == (try JSONValueEncoder.encode(document)))
  }

  struct History: Encodable {
    var rolls: [Int]
    var entries: [Counted]
  }

  /// An element put in front of a plain array (a history, newest first) is
  /// the only one encoded; arrays of scalars are written at once; both give
  /// what a fresh encoding gives.
  @Test func anElementPutInFrontIsTheOnlyOneEncoded() throws {
    let cache = JSONMemberCache()
    var history = History(rolls: [3, 1, 4], entries: Self.rows("h", 40))
    _ = try JSONValueEncoder.encode(history, reusing: cache)
    let before = Counted.encodings.withLock { $0 }
    history.rolls.insert(6, at: 0)
    history.entries.insert(Counted(label: "front", values: [0]), at: 0)
    history.entries.remove(at: 20)
    let changed = try JSONValueEncoder.encode(history, reusing: cache)
    let after = Counted.encodings.withLock { $0 }
    let mine = Set(history.entries.map(\.label) + ["h19"])
    // The front, and the entries between the two changes, which moved.
    let encoded = after.filter { mine.contains($0.key) && before[$0.key] != $0.value }.keys
    #expect(encoded.contains("front") && encoded.count == 20)
    #expect(changed == (try JSONValueEncoder.encode(history)))
    history.entries.removeFirst()
    history.entries[5].values = [9]
    #expect(try JSONValueEncoder.encode(history, reusing: cache) == (try JSONValueEncoder.encode(history)))
  }

  /// A change in front and an append, which changes the count: the two are
  /// encoded, the elements between them keep their JSON.
  @Test func aChangeAndAnAppendEncodeTwo() throws {
    let cache = JSONMemberCache()
    var history = History(rolls: [], entries: Self.rows("ca", 30))
    _ = try JSONValueEncoder.encode(history, reusing: cache)
    let before = Counted.encodings.withLock { $0 }
    history.entries[0].values = [-1]
    history.entries.append(Counted(label: "ca-new", values: []))
    let changed = try JSONValueEncoder.encode(history, reusing: cache)
    let after = Counted.encodings.withLock { $0 }
    let mine = Set(history.entries.map(\.label))
    #expect(after.filter { mine.contains($0.key) && before[$0.key] != $0.value }.keys.sorted() == ["ca-new", "ca0"])
    #expect(changed == (try JSONValueEncoder.encode(history)))
  }
}
