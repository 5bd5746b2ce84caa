import ComposableCore
import FoundationEssentials
import JSON
import Journal
import Replay
import Synchronization
import Testing

/// A guest book, schema 1: who visited last, and when.
struct GuestBookV1: Reducer {
  struct State: Codable, Equatable, Sendable {
    var name = "Guests"
    var visits = 0
    var lastVisit: Date?
  }
  enum Action: Codable, Equatable, Sendable {
    case visit
    case rename(String)
  }
  @Dependency(\.date) var date

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .visit:
      state.visits += 1
      state.lastVisit = date.now
    case .rename(let name):
      state.name = name
    }
    return .none
  }
}

/// The guest book, schema 2: `name` is `title`, and the book remembers when
/// it was opened. Migrated from schema 1 with its dates.
struct GuestBookV2: Reducer {
  struct State: Codable, Equatable, Sendable {
    var title = "Guests"
    var visits = 0
    var lastVisit: Date?
    var openedAt: Date?
  }
  enum Action: Codable, Equatable, Sendable {
    case visit
    case rename(String)
    case open
  }
  @Dependency(\.date) var date

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .visit:
      state.visits += 1
      state.lastVisit = date.now
    case .rename(let title):
      state.title = title
    case .open:
      state.openedAt = date.now
    }
    return .none
  }

  static let schema = AppSchema(
    version: 2,
    migrations: [
      SchemaMigration(
        from: 1,
        state: { (old: GuestBookV1.State) in
          State(title: old.name, visits: old.visits, lastVisit: old.lastVisit, openedAt: nil)
        },
        action: { (old: GuestBookV1.Action) -> Action? in
          switch old {
          case .visit: .visit
          case .rename(let name): .rename(name)
          }
        })
    ])
}

/// Records history as the daemon does: each action reduced with the
/// dependencies noting what they draw (the live clock here, with the
/// sub-millisecond noise of a wall clock), the state encoded as JSON and
/// diffed with the one before, and a migration as its own record.
struct HistoryRecorder {
  private(set) var versions: [JournalRecord] = []
  /// The state's JSON after the last version: what the journal holds.
  private(set) var document: JSONValue
  let base: JSONValue
  private let inputs = InputRecorder()
  private let dependencies: DependencyValues

  init(state: some Encodable) throws {
    document = try JSONValueEncoder.encode(state)
    base = document
    let ticks = Atomic<Int>(0)
    var live = DependencyValues()
    // A wall clock: every reading a different fraction of a millisecond.
    live.date = DateGenerator {
      Date(
        timeIntervalSince1970: 1_796_232_457.123_456 + 61.777_777 * Double(ticks.add(1, ordering: .relaxed).newValue))
    }
    dependencies = live.recordingInputs(into: inputs)
  }

  var time: Int64 { 1_796_232_457_000 + Int64(versions.count) * 61_778 }

  /// Reduces `action` on `state` and records the version.
  mutating func send<R: Reducer>(_ action: R.Action, to reducer: R, state: inout R.State) throws
  where R.State: Encodable, R.Action: Encodable {
    DependencyValues.$current.withValue(dependencies) { _ = reducer.reduce(into: &state, action: action) }
    let after = try JSONValueEncoder.encode(state)
    versions.append(
      JournalRecord(
        version: UInt64(versions.count + 1), time: time, origin: .object(["client": .string("guest")]),
        action: try JSONValueEncoder.encode(action), inputs: inputs.take()?.json,
        patch: JSONPatch.json(JSONPatch.diff(from: document, to: after))))
    document = after
  }

  /// Migrates the state's JSON from schema `old` with `schema`, as the
  /// daemon does at a start, and records the migration.
  mutating func migrate(from old: Int, with schema: AppSchema) throws -> JSONValue {
    let migrated = try schema.migrate(state: document, from: old)
    let change = JSONValue.object(["from": .int(old), "to": .int(schema.version)])
    versions.append(
      JournalRecord(
        version: UInt64(versions.count + 1), time: time,
        origin: .object(["build": .string("guestbook 2"), "migration": change]),
        action: .object(["$migration": change]), patch: JSONPatch.json(JSONPatch.diff(from: document, to: migrated))))
    document = migrated
    return migrated
  }
}

/// Live, recovered and replayed states are equal, bit for bit, for a state
/// that keeps the `date` dependency's dates, across a schema migration
/// (docs/DURABILITY.md, "Record"; docs/PROTOCOL.md, "State as JSON").
@Suite struct JournalReplayTests {
  @Test func verifyReproducesEveryVersionOfAStateKeepingDatesAcrossAMigration() throws {
    // Schema 1, live: its dates have milliseconds.
    var recorder = try HistoryRecorder(state: GuestBookV1.State())
    var first = GuestBookV1.State()
    for action: GuestBookV1.Action in [.visit, .rename("Visitors"), .visit, .visit] {
      try recorder.send(action, to: GuestBookV1(), state: &first)
      // Recovered from the journal's JSON: the live state, to the bit.
      #expect(try JSONValueDecoder.decode(GuestBookV1.State.self, from: recorder.document) == first)
    }
    let lastVisit = try #require(first.lastVisit)
    #expect(
      JSONDate.milliseconds(of: lastVisit).map { $0 % 1000 != 0 } == true,
      "the clock's dates fall between seconds, where whole-second JSON lost them")

    // The next build migrates it, and goes on in schema 2.
    let migrated = try recorder.migrate(from: 1, with: GuestBookV2.schema)
    var second = try JSONValueDecoder.decode(GuestBookV2.State.self, from: migrated)
    #expect(second.lastVisit == lastVisit, "the migration keeps the date")
    for action: GuestBookV2.Action in [.visit, .open, .rename("Guests"), .visit] {
      try recorder.send(action, to: GuestBookV2(), state: &second)
      #expect(try JSONValueDecoder.decode(GuestBookV2.State.self, from: recorder.document) == second)
    }
    #expect(recorder.versions.count == 9)

    // verify, with the build of schema 2: the versions of schema 1 are
    // compared as migrated states (the recorded JSON decoded, against the
    // replayed state), those of schema 2 by their patches (the replayed
    // state's JSON, against the recorded): each version reproduced is the
    // live state, replayed.
    let history = RecordedHistory(base: recorder.base, baseVersion: 0, baseSchema: 1, versions: recorder.versions)
    let replay = JournalReplay(reducer: GuestBookV2(), initialState: GuestBookV2.State(), schema: GuestBookV2.schema)
    let report = try replay.verify(history)
    #expect(report.reproduced, "\(report.divergences.map { "version \($0.version): \($0.problem ?? "")" })")
    #expect(report.divergenceCount == 0)
    #expect(report.versions == 1...9)

    // What builds before this rule did: dates written to whole seconds. The
    // visits of schema 1, compared as states, then diverge below a second.
    let wholeSeconds = RecordedHistory(
      base: recorder.base, baseVersion: 0, baseSchema: 1,
      versions: recorder.versions.map { version in
        var version = version
        version.patch = Self.cuttingDatesToSeconds(version.patch)
        return version
      })
    let cut = try replay.verify(wholeSeconds)
    let diverged = Set(cut.divergences.map(\.version))
    #expect(diverged.isSuperset(of: [1, 3, 4]), "\(diverged.sorted())")
  }

  /// `json` with every date string cut to whole seconds, as JSON of dates
  /// was written before dates kept their milliseconds.
  static func cuttingDatesToSeconds(_ json: JSONValue) -> JSONValue {
    switch json {
    case .string(let text):
      guard let date = try? JSONDate.milliseconds(parsing: text) else { return json }
      let seconds =
        (try? JSONDate.string(of: JSONDate.date(milliseconds: date - ((date % 1000) + 1000) % 1000))) ?? text
      return .string(String(seconds.dropLast(5)) + "Z")
    case .array(let elements): return .array(elements.map(cuttingDatesToSeconds))
    case .object(let members): return .object(JSONObject(members.map { ($0.key, cuttingDatesToSeconds($0.value)) }))
    default: return json
    }
  }
}
