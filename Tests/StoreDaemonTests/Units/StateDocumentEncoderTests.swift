import ComposableCore
import Features
import FoundationEssentials
import JSON
import Synchronization
import Testing
import Wire

@testable import StoreDaemon

@Suite struct StateDocumentEncoderTests {
  /// The encoder's document and patches: each update makes the document
  /// what encoding the whole state gives, and its patch is the diff from
  /// the document before.
  private final class Published<State: Encodable> {
    let encoder = StateDocumentEncoder<State>()
    var document: JSONValue = .null

    /// The document after updating it to `state`, checked against the
    /// patch the update gave.
    func update(to state: State, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONValue {
      let before = document
      let patch = try encoder.update(&document, to: state)
      #expect(patch == JSONPatch.diff(from: before, to: document), sourceLocation: sourceLocation)
      return document
    }
  }

  @Test func partByPartGivesWhatEncodingTheWholeStateGives() throws {
    let published = Published<AppFeature.State>()
    var state = AppFeature.State()
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    // Changes in one part, in several, and to and from nil optionals.
    state.counter.count = 7
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    #expect(published.encoder.encodedParts == 1)
    state.cart.setQuantity(2, of: Product.bundledCatalog[0])
    state.dice.errorMessage = "the timer worker is down"
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    state.dice.errorMessage = nil
    state.selectedTab = .cart
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    // Back to an earlier state (a batch the journal refused is undone).
    #expect(try published.update(to: AppFeature.State()) == CanonicalJSON.value(of: AppFeature.State()))
  }

  /// The encoder compares only the parts it encoded again, so the patch of
  /// a change to one part is that part's; after the state was put back (a
  /// refused batch), it encodes and diffs the whole state, as what it last
  /// encoded is not what was published.
  @Test func itComparesOnlyChangedPartsUntilTheStateIsReplaced() throws {
    let published = Published<AppFeature.State>()
    var state = AppFeature.State()
    _ = try published.update(to: state)
    state.counter.count = 6
    let second = try published.update(to: state)
    #expect(published.encoder.encodedParts == 1)
    #expect(second == (try CanonicalJSON.value(of: state)))
    // The journal refused count 6: the store is back at 5 and so is what
    // was published; the next action makes it 6 again.
    state.counter.count = 5
    published.document = try CanonicalJSON.value(of: state)
    published.encoder.stateWasReplaced()
    state.counter.count = 6
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    #expect(published.encoder.encodedParts > 1)
    state.counter.count = 7
    _ = try published.update(to: state)
    #expect(published.encoder.encodedParts == 1)
  }

  /// The encoder keeps the last state it brought the document to, which a
  /// refused action is undone to; it keeps none once the state was
  /// replaced, nor after a failed update.
  @Test func itPutsBackTheLastStateItPublished() throws {
    let published = Published<Listed>()
    #expect(published.encoder.putBack == nil)
    var state = Listed(side: Values(values: [1]), note: "a", when: Date(timeIntervalSince1970: 0))
    _ = try published.update(to: state)
    state.note = "b"
    _ = try published.update(to: state)
    var changed = state
    changed.note = "c"
    changed.side.values = [7]
    let putBack = try #require(published.encoder.putBack)
    putBack(&changed)
    #expect(changed == state)
    published.encoder.stateWasReplaced()
    #expect(published.encoder.putBack == nil)
    _ = try published.update(to: state)
    #expect(published.encoder.putBack != nil)
    state.side.values = [Values.failing]
    #expect(throws: (any Error).self) { try published.update(to: state) }
    #expect(published.encoder.putBack == nil)
  }

  /// The root state lists its parts (`StateParts`): every member its
  /// encoding writes, under the same key, and nothing else.
  @Test func theRootStateListsEveryPartItEncodes() throws {
    let state = AppFeature.State()
    var keys: [String] = []
    var copy = state
    copy.takeParts(from: state) { key, differed, _ in
      keys.append(key)
      #expect(!differed, "\(key) differs from itself")
    }
    guard case .object(let full) = try CanonicalJSON.value(of: state) else {
      Issue.record("the state does not encode as an object")
      return
    }
    #expect(keys.sorted() == Array(full.keys))
  }

  /// A state that lists its parts, with an optional part and a `Date`, gets
  /// what encoding it whole gives, through changes to and from nil.
  @Test func partsComparedDirectlyGiveWhatEncodingTheWholeStateGives() throws {
    let published = Published<Listed>()
    var state = Listed(side: Values(values: [1]), note: nil, when: Date(timeIntervalSince1970: 0))
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    let steps: [(String, (inout Listed) -> Void, Int)] = [
      ("nothing", { _ in }, 0),
      ("the note set", { $0.note = "n" }, 1),
      (
        "the note and the date",
        {
          $0.note = "m"
          $0.when = Date(timeIntervalSince1970: 60)
        }, 2
      ),
      ("the note back to nil", { $0.note = nil }, 1),
      ("the side", { $0.side.values.append(2) }, 1),
    ]
    for (what, change, encoded) in steps {
      change(&state)
      #expect(try published.update(to: state) == CanonicalJSON.value(of: state), "after \(what)")
      #expect(published.encoder.encodedParts == encoded, "after \(what)")
    }
  }

  /// An encoding that fails leaves nothing half done: the document is as
  /// it was, and the next update is whole and right.
  @Test func aFailedPartwiseEncodingIsFollowedByAWholeOne() throws {
    let published = Published<Listed>()
    var state = Listed(side: Values(values: [1]), note: "a", when: Date(timeIntervalSince1970: 0))
    let before = try published.update(to: state)
    state.note = "b"
    state.side.values = [Values.failing]
    #expect(throws: (any Error).self) { try published.update(to: state) }
    #expect(published.document == before)
    state.side.values = [3]
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    #expect(published.encoder.encodedParts == 3)
  }

  @Test func anUnchangedPartIsTheSameValueAsBefore() throws {
    let published = Published<Pair>()
    let first = try published.update(to: Pair(left: Side(values: [1, 2, 3]), right: Side(values: [4])))
    let second = try published.update(to: Pair(left: Side(values: [1, 2, 3]), right: Side(values: [5])))
    #expect(first.member("left") == second.member("left"))
    let expected: JSONValue = .object([
      "left": .object(["values": .array([.int(1), .int(2), .int(3)])]),
      "right": .object(["values": .array([.int(5)])]),
    ])
    #expect(second == expected)
    // Both parts, then only `right`.
    #expect(Side.encodings.withLock { $0 } == 3)
  }

  /// The state's own coding keys name the parts.
  @Test func aStateWithItsOwnKeysIsEncodedByThem() throws {
    let published = Published<Renamed>()
    let three: JSONValue = .object(["renamed": .int(3)])
    let four: JSONValue = .object(["renamed": .int(4)])
    #expect(try published.update(to: Renamed(value: 3)) == three)
    #expect(try published.update(to: Renamed(value: 4)) == four)
  }
}

private struct Pair: Encodable, Equatable {
  var left: Side
  var right: Side
}

/// A state that lists its parts.
private struct Listed: Encodable, Equatable, StateParts {
  var side: Values
  var note: String?
  var when: Date

  mutating func takeParts(
    from current: Self, _ part: (_ key: String, _ differed: Bool, _ value: () -> (any Encodable)?) throws -> Void
  ) rethrows {
    try Self.take("side", &side, from: current.side, part)
    try Self.take("note", &note, from: current.note, part)
    try Self.take("when", &when, from: current.when, part)
  }
}

/// A part of `Listed`, which fails to encode when asked to.
private struct Values: Encodable, Equatable {
  var values: [Int]
  /// A value that fails to encode.
  static let failing = -1
  func encode(to encoder: any Encoder) throws {
    if values.contains(Self.failing) {
      throw EncodingError.invalidValue(
        values, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "asked to fail"))
    }
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(values, forKey: .values)
  }
  enum Key: CodingKey { case values }
}

/// Counts its encodings, to show which parts were encoded again.
private struct Side: Encodable, Equatable {
  var values: [Int]
  static let encodings = Mutex(0)
  func encode(to encoder: any Encoder) throws {
    Self.encodings.withLock { $0 += 1 }
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(values, forKey: .values)
  }
  enum Key: CodingKey { case values }
}

private struct Renamed: Encodable, Equatable {
  var value: Int
  enum CodingKeys: String, CodingKey { case value = "renamed" }
}

extension JSONValue {
  fileprivate func member(_ key: String) -> JSONValue? {
    if case .object(let members) = self { members[key] } else { nil }
  }
}
