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

  /// An action that changes one field of a child state that lists its
  /// parts encodes that field alone, and publishes it as one operation.
  @Test func aChangeInsideAPartThatListsItsPartsIsThatMemberAlone() throws {
    let published = Published<AppFeature.State>()
    var state = AppFeature.State()
    _ = try published.update(to: state)
    state.counter.count += 1
    let before = published.document
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    #expect(published.encoder.encodedParts == 1)
    #expect(
      JSONPatch.diff(from: before, to: published.document) == [
        .replace(path: try JSONPointer("/counter/count"), value: .int(1))
      ])
    state.counter.numberFact = "1 is the loneliest number."
    state.counter.isLoading = true
    state.selectedTab = .cart
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    #expect(published.encoder.encodedParts == 3)
    state.counter.numberFact = nil
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
  }

  /// The seed features whose states list their parts, each changed in
  /// turn, and some views derived from them: the document is what encoding
  /// the whole state gives, and each patch the diff to it.
  @Test func theSeedFeaturesPartsGiveWhatEncodingTheWholeStateGives() throws {
    let published = Published<AppFeature.State>()
    var state = AppFeature.State()
    _ = try published.update(to: state)
    let steps: [(String, (inout AppFeature.State) -> Void)] = [
      (
        "a roll",
        {
          $0.dice.rollHistory.insert(4, at: 0)
          $0.dice.currentRoll = 4
        }
      ),
      (
        "rolling",
        {
          $0.dice.isRolling = true
          $0.dice.rollAnimationAngle = 12.5
        }
      ),
      ("the search's text", { $0.search.text = "cats" }),
      (
        "the search loading",
        {
          $0.search.query = "cats"
          $0.search.isLoading = true
        }
      ),
      (
        "the profile's user",
        {
          $0.profile.userID = 7
          $0.profile.status = .loading
        }
      ),
      ("the products loading", { $0.products.status = .loading }),
      ("the parent's counter", { $0.parent.counter.count = 3 }),
      ("the parent's preferences", { $0.parent.preferences.displayName = "Ada" }),
      ("the inventory's next id", { $0.inventory.nextItemID += 1 }),
      ("the BMI tab", { $0.bmi.selectedTab = .history }),
      (
        "the dice's error, and the search's",
        {
          $0.dice.errorMessage = "no timer"
          $0.search.errorMessage = "no network"
        }
      ),
      (
        "both back to nil",
        {
          $0.dice.errorMessage = nil
          $0.search.errorMessage = nil
        }
      ),
    ]
    for (what, change) in steps {
      change(&state)
      #expect(try published.update(to: state) == CanonicalJSON.value(of: state), "after \(what)")
    }
  }

  /// Parts inside parts, down two levels, with a view derived from one of
  /// them, optional members and a `Date`: the document is what encoding
  /// the whole state gives, and each patch the diff to it, whatever
  /// changes.
  @Test func nestedPartsGiveWhatEncodingTheWholeStateGives() throws {
    let published = Published<Outer>()
    var state = Outer()
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    let steps: [(String, (inout Outer) -> Void, Int)] = [
      ("nothing", { _ in }, 0),
      ("a count inside, and its view", { $0.inner.count = 2 }, 2),
      ("a date two levels down, and the view", { $0.inner.deeper.when = Date(timeIntervalSince1970: 60) }, 2),
      ("a note set at the root", { $0.note = "n" }, 1),
      (
        "an optional inside set, and values two levels down",
        {
          $0.inner.label = "l"
          $0.inner.deeper.side.values.append(9)
        }, 3
      ),
      ("the optional inside back to nil", { $0.inner.label = nil }, 2),
    ]
    for (what, change, encoded) in steps {
      change(&state)
      #expect(try published.update(to: state) == CanonicalJSON.value(of: state), "after \(what)")
      #expect(published.encoder.encodedParts == encoded, "after \(what)")
    }
    // A failed encoding two levels down leaves the document as it was.
    let before = published.document
    state.inner.count = 3
    state.inner.deeper.side.values = [Values.failing]
    #expect(throws: (any Error).self) { try published.update(to: state) }
    #expect(published.document == before)
    state.inner.deeper.side.values = [4]
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
  }

  /// A state that lists as its parts members its encoding does not write
  /// (here a part that encodes as a single value) is still published as
  /// its full encoding: the document and patch come from encoding it whole.
  @Test func partsTheEncodingDoesNotWriteFallBackToTheWholeEncoding() throws {
    let published = Published<Misdescribed>()
    var state = Misdescribed()
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    state.flat.count = 5
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
    state.flat.count = 6
    #expect(try published.update(to: state) == CanonicalJSON.value(of: state))
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

  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("side", &side, from: current.side, visitor)
    try Self.take("note", &note, from: current.note, visitor)
    try Self.take("when", &when, from: current.when, visitor)
  }
}

/// A state whose parts list parts of their own, two levels down.
private struct Outer: Encodable, Equatable, StateParts {
  var inner = Inner()
  var note: String?

  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("inner", &inner, from: current.inner, visitor)
    try Self.take("note", &note, from: current.note, visitor)
  }
}

/// A part that lists its parts, one of which does too, and publishes a
/// view derived from them.
private struct Inner: Encodable, Equatable, StateParts, PublishesView {
  var count = 0
  var label: String?
  var deeper = Deeper()

  struct View: Encodable { let summary: String }
  var view: View { View(summary: "\(count) \(label ?? "-") \(deeper.side.values.count)") }

  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("count", &count, from: current.count, visitor)
    try Self.take("label", &label, from: current.label, visitor)
    try Self.take("deeper", &deeper, from: current.deeper, visitor)
  }
}

private struct Deeper: Encodable, Equatable, StateParts {
  var when = Date(timeIntervalSince1970: 0)
  var side = Values(values: [1])

  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("when", &when, from: current.when, visitor)
    try Self.take("side", &side, from: current.side, visitor)
  }
}

/// A state listing a part's parts that the part's encoding does not write
/// as an object's members.
private struct Misdescribed: Encodable, Equatable, StateParts {
  var flat = Flat()
  var other = 1

  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("flat", &flat, from: current.flat, visitor)
    try Self.take("other", &other, from: current.other, visitor)
  }
}

/// Lists `count` as its part, but encodes as the number alone.
private struct Flat: Encodable, Equatable, StateParts {
  var count = 0

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(count)
  }

  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("count", &count, from: current.count, visitor)
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
