import ComposableCore
import Features
import Journal
import Wire

/// The state the daemon starts from: the journal's newest snapshot plus the
/// records after it, decoded into the app's `State`, and the writer that
/// continues the journal (docs/DURABILITY.md, "Recovery").
struct StateRecovery {
  let state: AppFeature.State
  /// The state as published JSON (the canonical encoding of `state`).
  let document: JSONValue
  let version: UInt64
  let epoch: String
  /// The most recent changes, so that subscribers can resume across a restart.
  let recentChanges: [DiffHistory.Change]
  let journal: JournalDirectory
  let writer: JournalWriter

  /// Why the daemon cannot start from what is on disk (exit status 65). The
  /// files are left as they were.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static func run(options: DaemonOptions, retained: Int) throws -> StateRecovery {
    let journal = try JournalDirectory(path: options.stateDirectory + "/journal")
    let recovered: RecoveredJournal
    do {
      recovered = try journal.recover(repair: options.repair)
    } catch {
      throw Failure(description: "cannot recover the state: \(error)")
    }
    for event in recovered.report.events {
      if event.isWarning { Log.warning("recovery: \(event)") } else { Log.info("recovery: \(event)") }
    }
    let initial = try CanonicalJSON.value(of: AppFeature.State())
    let replayed: JSONValue
    do {
      replayed = try recovered.replay(initialState: initial)
    } catch {
      throw Failure(description: "cannot replay the journal in \(journal.path): \(error); run with --repair to keep what precedes the damage")
    }
    let state: AppFeature.State
    do {
      state = try CanonicalJSON.decode(AppFeature.State.self, from: replayed)
    } catch let error as DecodingError {
      let file = recovered.snapshot?.path ?? journal.path
      throw Failure(description: "\(StateDecodingFailure(error, path: file, version: recovered.lastVersion))")
    }
    var epoch = recovered.epoch ?? Self.newEpoch()
    if recovered.report.droppedData {
      // Versions after the damage are gone: a subscriber holding one must not resume.
      epoch = Self.newEpoch()
    }
    let writer: JournalWriter
    do {
      writer = try journal.openWriter(
        after: recovered, epoch: epoch, configuration: JournalWriter.Configuration(sync: options.syncPolicy))
    } catch {
      throw Failure(description: "cannot open the journal for writing: \(error)")
    }
    let document = try CanonicalJSON.value(of: state)
    if recovered.lastVersion == 0 && recovered.snapshot == nil {
      // A new journal starts from a snapshot, so that it never depends on
      // the initial state a later build might define.
      try journal.writeSnapshot(version: 0, state: document, epoch: epoch)
    } else if document != replayed {
      // The state's shape gained defaults (a new optional field): later diffs
      // are computed from the re-encoded state, so recovery must start from it.
      try journal.writeSnapshot(version: recovered.lastVersion, state: document, epoch: epoch)
      Log.info("the recovered state re-encodes differently (its type changed compatibly); wrote a snapshot at version \(recovered.lastVersion)")
    }
    var recent: [DiffHistory.Change] = []
    if document == replayed {
      let schema = AppFeature.Action.actionSchema
      for entry in recovered.records.suffix(retained) {
        guard let record = try? entry.decoded(), let patch = try? JSONPatch.operations(from: record.patch) else {
          recent.removeAll()
          continue
        }
        let summary = ActionPath.describe(record.action, schema: schema)
        let frame = MessageCodec.frame(
          ServerMessage.diff(version: record.version, action: record.action, summary: summary, patch: record.patch))
        recent.append(
          DiffHistory.Change(version: record.version, action: record.action, summary: summary, patch: patch, byteCount: frame.count))
      }
    }
    Log.info(
      "recovered version \(recovered.lastVersion) (epoch \(epoch)) from \(journal.path): "
        + (recovered.snapshot.map { "snapshot at \($0.version) + " } ?? "") + "\(recovered.records.count) record(s)")
    return StateRecovery(
      state: state, document: document, version: recovered.lastVersion, epoch: epoch, recentChanges: recent,
      journal: journal, writer: writer)
  }

  static func newEpoch() -> String {
    String(UInt64.random(in: 1...UInt64.max), radix: 16)
  }
}
