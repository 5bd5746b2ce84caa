import ComposableCore
import JSON
import Journal

/// Replays recorded history through this build's reducers: the check before
/// a deploy (`verify`), the journal as a regression test, and `what-if`.
///
/// Each recorded action is reduced on the state before it, with the dates,
/// UUIDs and random numbers its reducer drew when it was recorded
/// (``RecordedInputs``) and the rest of the dependencies as given; its
/// effects are not run, because what they sent back is in the history as
/// actions of their own. Then the state's JSON is diffed with the state
/// before, as the daemon does, and compared with the recorded patch.
///
/// History recorded in an older schema is brought to this build's with the
/// app's migrations: the base state and each action before it is replayed,
/// and each recorded state before it is compared; a recorded migration
/// (``SchemaChange``) moves the recorded side to the next schema.
public struct JournalReplay<R: Reducer> where R.State: Codable & Equatable, R.Action: Codable {
  public let reducer: R
  /// The state before version 1, for a history that starts there.
  public let initialState: R.State
  /// This build's schema and migrations.
  public let schema: AppSchema
  /// The dependencies the reducers see (settings); the date, UUID and
  /// random number ones give what each action recorded.
  public let dependencies: DependencyValues

  public init(
    reducer: R, initialState: R.State, schema: AppSchema = AppSchema(version: 1, migrations: []),
    dependencies: DependencyValues = DependencyValues()
  ) {
    self.reducer = reducer
    self.initialState = initialState
    self.schema = schema
    self.dependencies = dependencies
  }

  /// Replays every version of `history`, comparing each with its record.
  ///
  /// After a divergence the replay goes on from the recorded state, so each
  /// divergence is one version's own.
  ///
  /// - Parameter limit: how many divergences to keep (all are counted).
  /// - Throws: ``ReplayError`` when the history cannot be replayed at all: its
  ///   base does not become this build's state, it is of a newer schema, or
  ///   a recorded patch does not apply.
  public func verify(_ history: RecordedHistory, keeping limit: Int = 10) throws(ReplayError) -> ReplayReport<R.State> {
    var run = try Run(self, recorded: try base(of: history), comparing: true)
    var count = 0
    var kept: [ReplayDivergence<R.State>] = []
    for version in history.versions {
      guard let divergence = try run.replay(version) else { continue }
      count += 1
      if kept.count < limit { kept.append(divergence) }
    }
    let first = history.versions.first?.version
    return ReplayReport(
      versions: first.map { $0...history.lastVersion }, divergenceCount: count, divergences: kept)
  }

  /// The state at `version` as recorded and as it would be with `edit`: the
  /// history is followed as recorded up to the edited version, which is left
  /// out or replaced, and the actions after it are reduced again.
  ///
  /// The actions that effects sent are replayed as they were recorded: an
  /// effect the edit would not have started still answers, one it would
  /// have started does not.
  ///
  /// - Throws: ``ReplayError/invalidRequest(_:)`` if `edit` or `version` is
  ///   outside `history`, or the edited version is a migration.
  public func whatIf(_ history: RecordedHistory, at version: UInt64, _ edit: ReplayEdit) throws(ReplayError)
    -> WhatIfOutcome
  {
    let edited = edit.version
    guard edited > history.baseVersion, edited <= history.lastVersion else {
      throw .invalidRequest(
        "version \(edited) is not in the history, which holds versions \(history.baseVersion + 1) through "
          + "\(history.lastVersion)")
    }
    guard version >= edited, version <= history.lastVersion else {
      throw .invalidRequest(
        "the state at version \(version) cannot show version \(edited) changed: give a version from \(edited) "
          + "through \(history.lastVersion)")
    }
    let editedRecord = history.versions[Int(edited - history.baseVersion - 1)]
    if editedRecord.schemaChange != nil {
      throw .invalidRequest("version \(edited) is the migration of the state to a newer schema, not an action")
    }
    // Up to the edit, the states as recorded.
    var recorded = try base(of: history)
    for record in history.versions where record.version < edited {
      try recorded.apply(record)
    }
    var run = try Run(self, recorded: recorded, comparing: false)
    var notes: [String] = []
    for record in history.versions where record.version >= edited && record.version <= version {
      if record.version == edited {
        switch edit {
        case .remove:
          try run.skip(record)
        case .replace(_, let action):
          if let note = try run.replace(record, with: action) { notes.append(note) }
        }
      } else if let note = try run.follow(record) {
        notes.append(note)
      }
    }
    let recordedState = try run.recordedDocument()
    return WhatIfOutcome(
      version: version, recorded: recordedState, edited: run.document,
      patch: JSONPatch.json(JSONPatch.diff(from: recordedState, to: run.document)), notes: notes)
  }

  /// The recorded state `history` starts from.
  private func base(of history: RecordedHistory) throws(ReplayError) -> RecordedState {
    let newest = history.versions.lazy.compactMap(\.schemaChange).map(\.to).max() ?? history.baseSchema
    if max(newest, history.baseSchema) > schema.version {
      throw .unusableBase(
        "the history is in schema \(max(newest, history.baseSchema)), newer than this build's schema "
          + "\(schema.version): replay it with that build or a newer one")
    }
    guard let base = history.base else {
      // A history of no versions has no schema of its own: a new journal.
      guard history.baseSchema == schema.version || history.versions.isEmpty else {
        throw .invalidRequest(
          "the history starts at version 1 in schema \(history.baseSchema): give that build's initial state as "
            + "its base")
      }
      do {
        return RecordedState(
          json: try JSONValueEncoder.encode(initialState), version: 0, schema: schema.version,
          format: JournalFormat.current)
      } catch {
        throw .unusableBase("the initial state does not encode as JSON: \(error)")
      }
    }
    return RecordedState(
      json: base, version: history.baseVersion, schema: history.baseSchema, format: history.baseFormat)
  }
}

/// The recorded side of a replay: the state as the history has it, in the
/// schema and format it was recorded in.
struct RecordedState {
  var json: JSONValue
  var version: UInt64
  var schema: Int
  var format: UInt32

  /// Applies `record`'s patch; a migration moves it to its schema.
  mutating func apply(_ record: JournalRecord) throws(ReplayError) {
    json = try Self.applying(record, to: json)
    version = record.version
    format = record.format
    if let change = record.schemaChange { schema = change.to }
  }

  /// `state` with `record`'s patch applied.
  static func applying(_ record: JournalRecord, to state: JSONValue) throws(ReplayError) -> JSONValue {
    do {
      return try JSONPatch.apply(try JSONPatch.operations(from: record.patch), to: state)
    } catch {
      throw .inconsistent(version: record.version, reason: error.description)
    }
  }
}

extension JournalReplay {
  /// One replay in progress: the replayed state and, when it is not the
  /// same JSON, the recorded one.
  private struct Run {
    let replay: JournalReplay
    /// Stepped as the daemon steps its own, without effects.
    let store: Store<R>
    let playback = InputPlayback()
    let cache = JSONMemberCache()
    /// Whether each version is compared with its record (verify), or the
    /// two sides go their own ways (what-if).
    let comparing: Bool
    var state: R.State { store.state }
    /// The JSON of `state`, as the daemon encodes it.
    var document: JSONValue
    /// The recorded state, when it is not `document`: recorded in another
    /// schema or format, or on another path (what-if). `nil` while the
    /// replay is in step with a history of this build's schema, which then
    /// compares patches alone.
    var recorded: RecordedState?
    /// The schema of the recorded side.
    var recordedSchema: Int

    init(_ replay: JournalReplay, recorded: RecordedState, comparing: Bool) throws(ReplayError) {
      self.replay = replay
      self.comparing = comparing
      self.recordedSchema = recorded.schema
      let decoded: R.State
      do throws(DecodeFailure) {
        decoded = try Self.decode(recorded.json, schema: recorded.schema, with: replay.schema)
      } catch {
        throw .unusableBase("the state at version \(recorded.version) \(error.reason)")
      }
      store = Store(
        replaying: decoded, reducer: replay.reducer, dependencies: replay.dependencies.replaying(playback))
      document = .null
      self.recorded = recorded
      document = try encoded(at: recorded.version)
      if comparing && isInStep(with: recorded) { self.recorded = nil }
    }

    // MARK: Verify

    /// Replays `record` and compares; returns how it diverged, if it did.
    mutating func replay(_ record: JournalRecord) throws(ReplayError) -> ReplayDivergence<R.State>? {
      let before = document
      var problem: String?
      if let change = record.schemaChange {
        guard change.from == recordedSchema else {
          throw .inconsistent(
            version: record.version,
            reason: "it migrates from schema \(change.from), but the state before it is in schema \(recordedSchema)")
        }
        // The replayed state is in this build's schema already; the
        // recorded one moves on to the next.
        recorded =
          recorded
          ?? RecordedState(
            json: before, version: record.version - 1, schema: recordedSchema, format: JournalFormat.current)
      } else {
        problem = reduce(record)
        document = try encoded(at: record.version)
      }
      guard var recordedSide = recorded else {
        // In step: the patches tell.
        let patch = JSONPatch.json(JSONPatch.diff(from: before, to: document))
        // What went wrong on the way explains a divergence; without one, it
        // is none (a reducer may draw less and still reproduce the version).
        if patch == record.patch { return nil }
        let after = try RecordedState.applying(record, to: before)
        if after == document { return nil }
        return try diverged(
          record, before: before,
          recordedAfter: RecordedState(
            json: after, version: record.version, schema: recordedSchema, format: record.format),
          problem: problem)
      }
      // Another schema or format: the states tell.
      try recordedSide.apply(record)
      recordedSchema = recordedSide.schema
      let expected = try? Self.decode(recordedSide.json, schema: recordedSide.schema, with: replay.schema)
      if expected == state {
        recorded = isInStep(with: recordedSide) ? nil : recordedSide
        return nil
      }
      if recordedSide.schema != replay.schema.version {
        let note = "recorded in schema \(recordedSide.schema); this build's is \(replay.schema.version)"
        problem = problem.map { "\($0); \(note)" } ?? note
      }
      return try diverged(record, before: before, recordedAfter: recordedSide, problem: problem)
    }

    /// The divergence of `record`, after which the replay goes on from the
    /// recorded state (if this build reads it).
    private mutating func diverged(
      _ record: JournalRecord, before: JSONValue, recordedAfter: RecordedState, problem: String?
    ) throws(ReplayError) -> ReplayDivergence<R.State> {
      var problem = problem
      let expected: R.State?
      do throws(DecodeFailure) {
        expected = try Self.decode(recordedAfter.json, schema: recordedAfter.schema, with: replay.schema)
      } catch {
        expected = nil
        let note = "the recorded state after it \(error.reason)"
        problem = problem.map { "\($0); \(note)" } ?? note
      }
      let divergence = ReplayDivergence(
        version: record.version, action: record.action, recordedPatch: record.patch,
        replayedPatch: record.schemaChange == nil ? JSONPatch.json(JSONPatch.diff(from: before, to: document)) : nil,
        problem: problem, recordedState: expected, replayedState: state)
      if let expected {
        store.restore(state: expected, version: store.version, forgettingRequestsFrom: store.nextRequestID)
        document = try encoded(at: record.version)
      }
      recorded = isInStep(with: recordedAfter) ? nil : recordedAfter
      return divergence
    }

    private func isInStep(with recorded: RecordedState) -> Bool {
      recorded.schema == replay.schema.version && recorded.format == JournalFormat.current && recorded.json == document
    }

    // MARK: What-if

    /// Leaves `record` out: the recorded side takes it, the replayed does not.
    mutating func skip(_ record: JournalRecord) throws(ReplayError) {
      try advanceRecorded(record)
    }

    /// Reduces `action` (this build's JSON) instead of `record`'s.
    mutating func replace(_ record: JournalRecord, with action: JSONValue) throws(ReplayError) -> String? {
      try advanceRecorded(record)
      let decoded: R.Action
      do {
        decoded = try JSONValueDecoder.decode(R.Action.self, from: action)
      } catch {
        throw .invalidRequest(
          "the replacement action \(CanonicalJSON.text(action)) is not one of this build's: \(error)")
      }
      let note = reduce(decoded, inputs: RecordedInputs(), time: record.time).map { "version \(record.version): \($0)" }
      document = try encoded(at: record.version)
      return note
    }

    /// Reduces `record` on the edited path: a migration only moves the
    /// recorded side. Returns what stopped the action, if anything did.
    mutating func follow(_ record: JournalRecord) throws(ReplayError) -> String? {
      try advanceRecorded(record)
      guard record.schemaChange == nil else { return nil }
      let problem = reduce(record)
      document = try encoded(at: record.version)
      return problem.map { "version \(record.version): \($0)" }
    }

    private mutating func advanceRecorded(_ record: JournalRecord) throws(ReplayError) {
      // invariant: a what-if's run keeps its recorded side (only verify, comparing, drops it once in step); the
      // history cannot change that
      guard var side = recorded else { preconditionFailure("a what-if keeps the recorded state") }
      try side.apply(record)
      recorded = side
      recordedSchema = side.schema
    }

    /// The recorded state in this build's schema, encoded as the replayed one is.
    func recordedDocument() throws(ReplayError) -> JSONValue {
      guard let recorded else { return document }
      do {
        let state = try Self.decode(recorded.json, schema: recorded.schema, with: replay.schema)
        return try JSONValueEncoder.encode(state)
      } catch let error as DecodeFailure {
        throw .unusableBase("the recorded state at version \(recorded.version) \(error.reason)")
      } catch {
        throw .unusableBase("the recorded state at version \(recorded.version) does not encode: \(error)")
      }
    }

    // MARK: Reducing

    /// Reduces `record`'s action, brought to this build's schema, with its
    /// recorded inputs; returns what went wrong, if anything.
    private mutating func reduce(_ record: JournalRecord) -> String? {
      var json: JSONValue? = record.action
      if recordedSchema < replay.schema.version {
        do throws(SchemaMigrationError) {
          json = try replay.schema.migrate(action: record.action, from: recordedSchema)
        } catch {
          return "\(error)"
        }
      }
      guard let json else { return "the migrations drop it (it has no counterpart in this build's schema)" }
      let action: R.Action
      do {
        action = try JSONValueDecoder.decode(R.Action.self, from: json)
      } catch {
        return "it does not decode as this build's action: \(error)"
      }
      var inputs = RecordedInputs()
      if let recordedInputs = record.inputs {
        do throws(RecordedInputsError) {
          inputs = try RecordedInputs(json: recordedInputs)
        } catch {
          return "\(error)"
        }
      }
      return reduce(action, inputs: inputs, time: record.time)
    }

    private mutating func reduce(_ action: R.Action, inputs: RecordedInputs, time: Int64) -> String? {
      playback.load(inputs, time: time)
      let store = store
      let dropped = collectingDroppedAction {
        store.reduce(action)
        while store.reduceNext({ _, _, _ in }) {}
      }
      var problems: [String] = []
      if let dropped { problems.append("the reducer dropped it: \(dropped.reason)") }
      let (extra, unused) = playback.mismatch
      if !extra.isEmpty {
        problems.append("the reducer drew \(extra.joined(separator: ", ")) beyond what was recorded")
      }
      if !unused.isEmpty {
        problems.append("the reducer drew less \(unused.joined(separator: ", ")) than was recorded")
      }
      return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    private mutating func encoded(at version: UInt64) throws(ReplayError) -> JSONValue {
      do {
        return try JSONValueEncoder.encode(state, reusing: cache)
      } catch {
        throw .unusableBase("the replayed state at version \(version) does not encode as JSON: \(error)")
      }
    }

    /// Why a recorded state is not one of this build's.
    struct DecodeFailure: Error {
      let reason: String
    }

    /// `json`, a state of schema `old`, as this build's `State`.
    static func decode(_ json: JSONValue, schema old: Int, with schema: AppSchema) throws(DecodeFailure) -> R.State {
      var current = json
      if old != schema.version {
        do throws(SchemaMigrationError) {
          current = try schema.migrate(state: json, from: old)
        } catch {
          throw DecodeFailure(reason: "cannot be migrated: \(error)")
        }
      }
      do {
        return try JSONValueDecoder.decode(R.State.self, from: current)
      } catch {
        throw DecodeFailure(reason: "does not decode as this build's state: \(error)")
      }
    }
  }
}

extension JournalReplay: Sendable where R: Sendable, R.State: Sendable {}
