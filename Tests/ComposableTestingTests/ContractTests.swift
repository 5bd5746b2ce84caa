import ActionLanguage
import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import Testing

/// A feature whose contract holds: labelled and unlabelled values, an
/// optional, a string enum, a collection and an internal case.
struct Tally: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var note: String?
    var mode = Mode.up
  }
  enum Mode: String, Codable, Sendable, CaseIterable { case up, down }
  enum Action: Equatable, Codable, Sendable, DescribedAction {
    case add(Int)
    case note(String?, pinned: Bool)
    case mode(Mode)
    case counted(total: Int)
    case undescribed

    static let describedCases: [DescribedCase<Self>] = [
      .init(.add(2), "Adds to the count"),
      .init(.note("hi", pinned: true), "Notes something"),
      .init(.mode(.down), "Counts up or down"),
      .init(.counted(total: 3), "The count was taken", sentBy: .timerEffect),
    ]
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.count += state.mode == .up ? amount : -amount
    case .note(let note, _): state.note = note
    case .mode(let mode): state.mode = mode
    case .counted(let total): state.count = total
    case .undescribed: state.count = 0
    }
    return .none
  }
}

/// An action whose hand-written encoding writes another value than it read:
/// a deliberately wrong encoding.
enum Doubling: Equatable, Codable, Sendable, DescribedAction {
  case add(Int)

  static let describedCases: [DescribedCase<Self>] = [.init(.add(2), "Adds")]

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    let values = try container.nestedContainer(keyedBy: ValueKeys.self, forKey: .add)
    self = .add(try values.decode(Int.self, forKey: ._0))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    var values = container.nestedContainer(keyedBy: ValueKeys.self, forKey: .add)
    guard case .add(let amount) = self else { return }
    try values.encode(amount * 2, forKey: ._0)
  }

  private enum Keys: String, CodingKey { case add }
  private enum ValueKeys: String, CodingKey { case _0 }
}

struct DoublingFeature: Reducer {
  typealias State = Tally.State
  func reduce(into state: inout State, action: Doubling) -> Effect<Doubling> { .none }
}

/// A state that leaves a member out of its JSON: it does not survive a restart.
struct Forgetful: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var cache = 0
    private enum CodingKeys: String, CodingKey { case count }
  }
  typealias Action = Tally.Action
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .add(let amount) = action { state.cache += amount }
    return .none
  }
}

/// Tally's state listing its parts, rightly.
extension Tally.State: StateParts {
  mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
    try Self.take("count", &count, from: current.count, visitor)
    try Self.take("note", &note, from: current.note, visitor)
    try Self.take("mode", &mode, from: current.mode, visitor)
  }
}

/// A feature whose state lists a part its encoding does not write, and
/// leaves out one it does.
struct Mislisted: Reducer {
  struct State: Equatable, Codable, Sendable, StateParts {
    var count = 0
    var note = ""

    mutating func takeParts(from current: Self, _ visitor: any StatePartsVisitor) throws {
      try Self.take("count", &count, from: current.count, visitor)
      try Self.take("notes", &note, from: current.note, visitor)
    }
  }
  typealias Action = Tally.Action
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// The conformance check: it passes for a feature that keeps its contract,
/// and fails, naming what broke, for one that does not.
@Suite struct ContractTests {
  @Test func passesForAFeatureThatKeepsItsContract() {
    assertContract(of: Tally.self, states: [Tally.State(), Tally.State(count: 3, note: "hi", mode: .down)])
  }

  @Test func aWrongEncodingFailsTheCheck() {
    withKnownIssue {
      assertContract(of: DoublingFeature.self)
    } matching: { issue in
      mentions("Doubling.describedCases", "the sample of case 'add' does not decode to itself")(issue)
    }
  }

  @Test func aStateThatLosesAMemberFailsTheCheck() {
    withKnownIssue {
      assertContract(of: Forgetful.self, states: [Forgetful.State(count: 1, cache: 5)])
    } matching: { issue in
      mentions("reads back from its JSON as a different state", "cache: 5")(issue)
    }
  }

  @Test func aStateThatListsPartsItsEncodingDoesNotWriteFailsTheCheck() {
    withKnownIssue {
      assertContract(of: Mislisted.self, states: [Mislisted.State()])
    } matching: { issue in
      mentions("written but not listed: note", "listed but not written: notes")(issue)
    }
  }

  @Test func aTestStoreFailsOnAStateThatDoesNotSurviveItsJSON() {
    let store = TestStore(initialState: Forgetful.State()) { Forgetful() }
    withKnownIssue {
      store.send(.add(2)) { $0.cache = 2 }
    } matching: { issue in
      mentions("The state after .add(2) breaks the contract", "cache: 2")(issue)
    }
  }

  @Test func aTestStoreFailsOnAnUndescribedCase() {
    let store = TestStore(initialState: Tally.State(count: 1)) { Tally() }
    withKnownIssue {
      store.send(.undescribed) { $0.count = 0 }
    } matching: { issue in
      mentions(".undescribed has a case its schema does not describe", "no case 'undescribed'")(issue)
    }
  }

  /// What the check reads malformed actions with is the daemon's reader.
  @Test func malformedActionsAreRefusedWithWhatWasExpected() throws {
    let schema = Tally.Action.actionSchema
    func refusal(_ read: () throws(ActionReadError) -> ReadAction<Tally.Action>) -> String {
      do {
        _ = try read()
        return "taken"
      } catch {
        return error.description
      }
    }
    #expect(
      refusal { () throws(ActionReadError) in try schema.read(Tally.Action.self, path: "add", arguments: ["x"]) }
        == "add: 'x' is not an Int")
    #expect(
      refusal { () throws(ActionReadError) in
        try schema.read(Tally.Action.self, json: .object(["counted": .object(["total": .int(1), "extra": .int(2)])]))
      } == #"{"counted":{"extra":2,"total":1}} is not an action: unexpected member 'extra' in counted, "#
        + "which takes only 'total'. `tcactl actions` lists the valid ones.")
    #expect(
      refusal { () throws(ActionReadError) in try schema.read(Tally.Action.self, path: "note", arguments: []) }
        == "note takes 2 arguments (String?, pinned: Bool), got 0")
    let read = try schema.read(Tally.Action.self, path: "note", arguments: ["null", "true"])
    #expect(read.action == .note(nil, pinned: true))
    #expect(read.json == .object(["note": .object(["_0": .null, "pinned": .bool(true)])]))
    #expect(read.summary == "note null true")
  }
}
