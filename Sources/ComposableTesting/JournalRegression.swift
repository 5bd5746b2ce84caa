import ComposableCore
import FoundationEssentials
import JSON
import Replay
import Testing

/// The journal as a regression test: a history the daemon recorded is
/// replayed through the reducers under test, and every version must come
/// out as it was recorded.
///
/// ```swift
/// @Test func reproducesTheRecordedSession() throws {
///   assertReplays(
///     logFile: "Tests/TodosTests/Resources/session.jsonl",  // `tcactl log --json` output
///     reducer: Todos(), initialState: Todos.State())
/// }
/// ```
///
/// A version that differs fails the test with the TestStore's −/+ diff of
/// the recorded state against the replayed one, at the first version that
/// differs; the count of later ones follows. Each action is reduced with
/// the dates, UUIDs and random numbers it drew when recorded, and its
/// effects are not run: what they sent back is in the log as actions.
///
/// - Parameters:
///   - history: the recorded history (``RecordedHistory``).
///   - schema: the app's schema and migrations, for a history recorded in
///     an older schema.
///   - prepare: the dependencies besides the recorded ones (settings).
public func assertReplays<R: Reducer>(
  _ history: RecordedHistory, reducer: R, initialState: R.State,
  schema: AppSchema = AppSchema(version: 1, migrations: []),
  withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) where R.State: Codable & Equatable, R.Action: Codable {
  var dependencies = DependencyValues(context: .test)
  prepare(&dependencies)
  let replay = JournalReplay(reducer: reducer, initialState: initialState, schema: schema, dependencies: dependencies)
  let report: ReplayReport<R.State>
  do {
    report = try replay.verify(history, keeping: 1)
  } catch {
    Issue.record(Comment(rawValue: "The history cannot be replayed: \(error)"), sourceLocation: sourceLocation)
    return
  }
  guard let first = report.divergences.first else {
    if history.versions.isEmpty {
      Issue.record(
        Comment(rawValue: "The history holds no versions: nothing was replayed."), sourceLocation: sourceLocation)
    }
    return
  }
  Issue.record(Comment(rawValue: describe(first, count: report.divergenceCount)), sourceLocation: sourceLocation)
}

/// ``assertReplays(_:reducer:initialState:schema:withDependencies:sourceLocation:)``
/// with what `tcactl log --json` printed, in the file `logFile`: from
/// version 1 on the initial state, or after the state in `baseFile` (what
/// `tcactl get --at V --json` printed for the version before the first).
///
/// `recordedIn` is the schema the log starts in, this build's by default:
/// once the app's schema moves on, a log recorded before keeps its own
/// (`recordedIn: 1`), and is replayed through the migrations.
public func assertReplays<R: Reducer>(
  logFile: String, baseFile: String? = nil, recordedIn logSchema: Int? = nil, reducer: R, initialState: R.State,
  schema: AppSchema = AppSchema(version: 1, migrations: []),
  withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) where R.State: Codable & Equatable, R.Action: Codable {
  let history: RecordedHistory
  do {
    let base = try baseFile.map { try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: $0)))) }
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: logFile)), as: UTF8.self)
    history = try RecordedHistory(log: text, base: base, baseSchema: logSchema ?? schema.version)
  } catch {
    Issue.record(Comment(rawValue: "Cannot read the log \(logFile): \(error)"), sourceLocation: sourceLocation)
    return
  }
  assertReplays(
    history, reducer: reducer, initialState: initialState, schema: schema, withDependencies: prepare,
    sourceLocation: sourceLocation)
}

/// ``assertReplays(_:reducer:initialState:schema:withDependencies:sourceLocation:)``
/// with the retained journal of a state directory (or a copy of one).
public func assertReplays<R: Reducer>(
  stateDirectory: String, reducer: R, initialState: R.State,
  schema: AppSchema = AppSchema(version: 1, migrations: []),
  withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) where R.State: Codable & Equatable, R.Action: Codable {
  let history: RecordedHistory
  do {
    history = try RecordedHistory(stateDirectory: stateDirectory)
  } catch {
    Issue.record(Comment(rawValue: "Cannot read the journal: \(error)"), sourceLocation: sourceLocation)
    return
  }
  assertReplays(
    history, reducer: reducer, initialState: initialState, schema: schema, withDependencies: prepare,
    sourceLocation: sourceLocation)
}

/// The failure for the first divergence of `count`.
private func describe<State>(_ divergence: ReplayDivergence<State>, count: Int) -> String {
  var lines = ["Version \(divergence.version), \(CanonicalJSON.text(divergence.action)), does not replay as recorded."]
  if let problem = divergence.problem { lines.append("(\(problem))") }
  if let recorded = divergence.recordedState {
    lines.append("State after it: (− recorded, + replayed)")
    lines.append(
      LineDiff.render(expected: ValueDump.lines(recorded), actual: ValueDump.lines(divergence.replayedState)))
  } else {
    lines.append("Recorded patch: \(CanonicalJSON.text(divergence.recordedPatch))")
    lines.append("Replayed patch: \(divergence.replayedPatch.map { CanonicalJSON.text($0) } ?? "(not reduced)")")
  }
  if count > 1 { lines.append("\(count - 1) later version(s) diverge too.") }
  return lines.joined(separator: "\n")
}
