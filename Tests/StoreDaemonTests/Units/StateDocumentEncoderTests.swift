import ComposableCore
import Features
import Testing
import Synchronization
import Wire

@testable import StoreDaemon

@Suite struct StateDocumentEncoderTests {
  @Test func partByPartGivesWhatEncodingTheWholeStateGives() throws {
    let encoder = StateDocumentEncoder<AppFeature.State>()
    var state = AppFeature.State()
    #expect(try encoder.document(of: state) == CanonicalJSON.value(of: state))
    // Changes in one part, in several, and to and from nil optionals.
    state.counter.count = 7
    #expect(try encoder.document(of: state) == CanonicalJSON.value(of: state))
    #expect(encoder.encodedParts == 1)
    state.cart.setQuantity(2, of: state.cart.catalog[0])
    state.products.rows[id: state.cart.catalog[0].id]?.count = 2
    state.dice.errorMessage = "the timer worker is down"
    #expect(try encoder.document(of: state) == CanonicalJSON.value(of: state))
    state.dice.errorMessage = nil
    state.selectedTab = .cart
    #expect(try encoder.document(of: state) == CanonicalJSON.value(of: state))
    // Back to an earlier state (a batch the journal refused is undone).
    #expect(try encoder.document(of: AppFeature.State()) == CanonicalJSON.value(of: AppFeature.State()))
  }

  @Test func anUnchangedPartIsTheSameValueAsBefore() throws {
    let encoder = StateDocumentEncoder<Pair>()
    let first = try encoder.document(of: Pair(left: Side(values: [1, 2, 3]), right: Side(values: [4])))
    let second = try encoder.document(of: Pair(left: Side(values: [1, 2, 3]), right: Side(values: [5])))
    #expect(first.member("left") == second.member("left"))
    #expect(second == .object(["left": .object(["values": .array([.int(1), .int(2), .int(3)])]), "right": .object(["values": .array([.int(5)])])]))
    // Both parts, then only `right`.
    #expect(Side.encodings.withLock { $0 } == 3)
  }

  /// The state's own coding keys name the parts.
  @Test func aStateWithItsOwnKeysIsEncodedByThem() throws {
    let encoder = StateDocumentEncoder<Renamed>()
    #expect(try encoder.document(of: Renamed(value: 3)) == .object(["renamed": .int(3)]))
    #expect(try encoder.document(of: Renamed(value: 4)) == .object(["renamed": .int(4)]))
  }
}

private struct Pair: Encodable, Equatable {
  var left: Side
  var right: Side
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
