import ActionLanguage
import ComposableCore
import JSON
import Journal
import Platform
import Replication
import Wire

/// The state the daemon starts from: the journal's newest snapshot plus the
/// records after it, migrated to this build's schema if it is of an older
/// one, decoded into the app's `State`, and the writer that continues the
/// journal (docs/DURABILITY.md, "Recovery" and "Schema versions and migrations").
struct StateRecovery<State: Codable> {
  let state: State
  /// The state as published JSON (the canonical encoding of `state`).
  let document: JSONValue
  let version: UInt64
  let epoch: String
  /// The app's schema `document` is in: this build's, but for a replicated
  /// daemon whose store is of an older one, which it follows as it is and
  /// migrates only once it leads (docs/OPERATIONS.md, "Rolling upgrades").
  let schema: Int
  /// The most recent changes, so that subscribers can resume across a restart.
  let recentChanges: [DiffHistory.Change]
  let journal: JournalDirectory
  let writer: JournalWriter

  /// Recovers the state, starting from `initialState` when the journal is
  /// new; `schema` describes the actions of the changes kept for resuming.
  /// Data of an older `appSchema` is migrated: the migration is recorded
  /// (named by `build`) and a snapshot of the migrated state written before
  /// anything else happens. The journal is `directory`'s (a store's
  /// directory; the state directory's by default).
  static func run(
    options: DaemonOptions, retained: Int, initialState: State, schema: ActionSchema, appSchema: AppSchema,
    build: String, directory: String? = nil
  ) throws -> StateRecovery {
    let journal = try JournalDirectory(path: (directory ?? options.stateDirectory) + "/journal")
    let initial = try CanonicalJSON.value(of: initialState)
    var recovered = try recover(journal, repair: options.repair)
    // Refused before anything is written: data of a newer build, or of a
    // schema this one has no migration from.
    var dataSchema = schemaOfData(recovered, app: appSchema)
    var migration = try migrationSteps(appSchema, from: dataSchema, in: recovered)
    // With --repair, each record that cannot be used is set aside with
    // the ones after it, and the journal recovered again, until the state
    // rebuilds.
    var setAside = false
    let (replayed, state) = try { () throws -> (JSONValue, State) in
      while true {
        do {
          return try rebuild(recovered, initial: initial, migration: migration)
        } catch let unusable as UnusableRecord {
          guard options.repair else {
            throw RecoveryFailure(
              description: "cannot recover the state: \(unusable). The records are intact up to version "
                + "\(unusable.entry.version - 1). Start \(DaemonName.current) with --repair to keep them and set this record "
                + "and the ones after it aside (nothing is deleted; the log lists what was set aside), or restore "
                + "the journal from a backup.")
          }
          let events: [RecoveryEvent]
          do {
            events = try journal.setAside(from: unusable.entry, problem: unusable.problem)
          } catch {
            throw RecoveryFailure(
              description: "cannot set aside the record that cannot be used (\(unusable)): \(error)")
          }
          for event in events { Log.warning("recovery: \(event)") }
          setAside = true
          recovered = try recover(journal, repair: true)
          dataSchema = schemaOfData(recovered, app: appSchema)
          migration = try migrationSteps(appSchema, from: dataSchema, in: recovered)
        }
      }
    }()
    var epoch = recovered.epoch ?? Self.newEpoch()
    if recovered.report.droppedData || setAside {
      // Versions after the damage are gone: a subscriber holding one must not resume.
      epoch = Self.newEpoch()
    }
    let writer: JournalWriter
    do {
      writer = try journal.openWriter(
        after: recovered, epoch: epoch,
        configuration: JournalWriter.Configuration(
          sync: options.syncPolicy,
          // A record the replicated log cannot carry is refused here, as
          // too large, before any client hears of it.
          maximumRecordBytes: options.replication == nil ? 64 << 20 : ReplicatedLog.maximumRecordBytes))
    } catch {
      throw RecoveryFailure(description: "cannot open the journal for writing: \(error)")
    }
    // A replicated store's migration is a version of its log, which only
    // its leader appends: a daemon of a newer build follows the log in the
    // store's schema until it leads, then migrates it (``StoreLoop/takeOver()``).
    // The migration was checked all the same: its state decoded.
    let follows = options.replication != nil && dataSchema != appSchema.version
    let document = follows ? replayed : try CanonicalJSON.value(of: state)
    var version = recovered.lastVersion
    var migrationRecord: JournalRecord?
    if recovered.lastVersion == 0 && recovered.snapshot == nil {
      // A new journal starts from a snapshot, so that it never depends on
      // the initial state a later build might define.
      try journal.writeSnapshot(version: 0, state: document, epoch: epoch, schema: appSchema.version)
    } else if follows {
      Log.info(
        "the store is of schema \(dataSchema) and this build's is \(appSchema.version): following its log in schema "
          + "\(dataSchema), and migrating it once this daemon leads (the migration of the state at version "
          + "\(recovered.lastVersion) gives a state this build decodes)")
    } else if dataSchema != appSchema.version {
      // The migration is a version of its own, then a snapshot in the new
      // schema; a crash between the two leaves the record, and the next
      // start replays it instead of migrating again. What the snapshot
      // covers stays until the next one, for `log` and `get --at`.
      version += 1
      let change = SchemaChange(from: dataSchema, to: appSchema.version)
      let record = change.record(
        version: version, time: WallClock.milliseconds(),
        patch: JSONPatch.json(JSONPatch.diff(from: replayed, to: document)), build: build)
      do {
        #if DEBUG
          killDuringMigrationIfAsked(at: "before-record")
        #endif
        _ = try writer.append([record])
        try writer.sync()
      } catch {
        throw RecoveryFailure(
          description: "cannot record the migration from schema \(change.from) to \(change.to): \(error); "
            + "the data is unchanged in schema \(change.from), and the next start migrates it again")
      }
      #if DEBUG
        killDuringMigrationIfAsked(at: "after-record")
      #endif
      do {
        try journal.writeSnapshot(
          version: version, state: document, epoch: epoch, schema: appSchema.version, compacting: false)
      } catch {
        throw RecoveryFailure(
          description: "migrated the state from schema \(change.from) to \(change.to) at version \(version), but "
            + "cannot write its snapshot: \(error); the migration is recorded, and the next start replays it and "
            + "writes the snapshot")
      }
      migrationRecord = record
      Log.info(
        "migrated the state from schema \(change.from) to \(change.to) at version \(version) "
          + "(\(recovered.records.count) record(s) after the snapshot replayed first); wrote a snapshot")
    } else if document != replayed {
      // The state's shape gained defaults (a new optional field), or the
      // journal is of an older format (JournalFormat): later diffs are
      // computed from the re-encoded state, so recovery must start from it.
      // What it covers stays until the next snapshot, for `log` and `get --at`.
      try journal.writeSnapshot(
        version: recovered.lastVersion, state: document, epoch: epoch, schema: appSchema.version, compacting: false)
      Log.info(
        "the recovered state re-encodes differently (its type changed compatibly); wrote a snapshot at version \(recovered.lastVersion)"
      )
    } else if let snapshot = recovered.snapshot, snapshot.schema != appSchema.version {
      // A migration recorded by a start that stopped before its snapshot:
      // the snapshot it would have written, so later starts read the new
      // schema directly.
      try journal.writeSnapshot(
        version: recovered.lastVersion, state: document, epoch: epoch, schema: appSchema.version, compacting: false)
      Log.info(
        "the migration to schema \(appSchema.version) is recorded after the snapshot of schema \(snapshot.schema); "
          + "wrote a snapshot at version \(recovered.lastVersion)")
    }
    var recent: [DiffHistory.Change] = []
    // The records' patches lead to `replayed`, and a migration's from there
    // to `document`: a subscriber resumes across both.
    if document == replayed || migrationRecord != nil {
      for entry in recovered.records.suffix(retained) {
        // A record of an older format holds another shape of JSON.
        guard entry.format == JournalFormat.current, let record = try? entry.decoded(),
          let patch = try? JSONPatch.operations(from: record.patch)
        else {
          recent.removeAll()
          continue
        }
        recent.append(change(record, patch: patch, schema: schema))
      }
      if let migrationRecord, let patch = try? JSONPatch.operations(from: migrationRecord.patch) {
        recent.append(change(migrationRecord, patch: patch, schema: schema))
      }
      recent = Array(recent.suffix(retained))
    }
    Log.write(
      .info,
      "recovered version \(version) (epoch \(epoch)) from \(journal.path): "
        + (recovered.snapshot.map { "snapshot at \($0.version) + " } ?? "") + "\(recovered.records.count) record(s)"
        + (migrationRecord == nil ? "" : " + the migration"),
      fields: [("VERSION", String(version)), ("EPOCH", epoch)])
    return StateRecovery(
      state: state, document: document, version: version, epoch: epoch,
      schema: follows ? dataSchema : appSchema.version,
      recentChanges: recent, journal: journal, writer: writer)
  }

  /// A record as the diff history keeps it.
  private static func change(_ record: JournalRecord, patch: [PatchOperation], schema: ActionSchema)
    -> DiffHistory.Change
  {
    let summary = SchemaChange(action: record.action)?.summary ?? ActionPath.describe(record.action, schema: schema)
    let frame = MessageCodec.frame(
      ServerMessage.diff(version: record.version, action: record.action, summary: summary, patch: record.patch))
    return DiffHistory.Change(
      version: record.version, action: record.action, summary: summary, patch: patch, byteCount: frame.count)
  }

  /// The schema of the recovered data; a journal that holds none (a new
  /// state directory) is this build's.
  private static func schemaOfData(_ recovered: RecoveredJournal, app: AppSchema) -> Int {
    recovered.snapshot == nil && recovered.records.isEmpty ? app.version : recovered.schema
  }

  /// The migrations that bring data of schema `old` to `appSchema`'s.
  ///
  /// - Throws: ``RecoveryFailure`` when the data is of a newer schema or a
  ///   migration is missing, naming it; nothing has been written then.
  private static func migrationSteps(
    _ appSchema: AppSchema, from old: Int, in recovered: RecoveredJournal
  ) throws -> [SchemaMigration] {
    do {
      return try appSchema.steps(from: old)
    } catch {
      let source = recovered.snapshot.map { "the snapshot \($0.path) and the records after it" } ?? "the journal"
      throw RecoveryFailure(
        description: "cannot recover the state from \(source) (schema \(old)): \(error). The files are unchanged.")
    }
  }
  /// Recovers `journal`, logging what recovery found and did.
  private static func recover(_ journal: JournalDirectory, repair: Bool) throws -> RecoveredJournal {
    let recovered: RecoveredJournal
    do {
      recovered = try journal.recover(repair: repair)
    } catch {
      throw RecoveryFailure(description: "cannot recover the state: \(error)")
    }
    for event in recovered.report.events {
      if event.isWarning { Log.warning("recovery: \(event)") } else { Log.info("recovery: \(event)") }
    }
    return recovered
  }

  /// The state at the journal's last version, as JSON and decoded.
  ///
  /// - Throws: ``UnusableRecord`` naming the record whose patch does not
  ///   apply, or after which the state no longer decodes; a ``RecoveryFailure``
  ///   when the snapshot's own state does not decode (another build's
  ///   shape: the file is left for that build).
  private static func rebuild(
    _ recovered: RecoveredJournal, initial: JSONValue, migration: [SchemaMigration]
  ) throws -> (replayed: JSONValue, state: State) {
    let replayed: JSONValue
    do {
      replayed = try recovered.replay(initialState: initial)
    } catch {
      switch error {
      case .patchDoesNotApply(let version, _, _, let reason):
        if let entry = recovered.records.entry(version: version) {
          throw UnusableRecord(entry: entry, problem: "its patch does not apply to the state before it: \(reason)")
        }
      case .undecodableRecord(let path, let offset, let reason):
        if let entry = recovered.record(at: path, offset: offset) {
          throw UnusableRecord(entry: entry, problem: "it does not decode: \(reason)")
        }
      default:
        break
      }
      throw RecoveryFailure(description: "cannot replay the journal in \(recovered.directory): \(error)")
    }
    var current = replayed
    do {
      for step in migration { current = try step.migrate(state: current) }
    } catch {
      throw RecoveryFailure(
        description: "cannot recover the state: \(error). The files are unchanged; fix the migration and start again.")
    }
    do {
      return (replayed, try CanonicalJSON.decode(State.self, from: current))
    } catch let error as DecodingError where !migration.isEmpty {
      throw RecoveryFailure(
        description:
          "cannot recover the state: the migration to schema \((migration.last?.from ?? 0) + 1) gave a state "
          + "that does not decode: \(StateDecodingFailure(error, path: recovered.directory, version: recovered.lastVersion)). "
          + "The files are unchanged; fix the migration and start again.")
    } catch let error as DecodingError {
      let decodes = { (state: JSONValue) in (try? CanonicalJSON.decode(State.self, from: state)) != nil }
      let base = recovered.snapshot?.state ?? initial
      guard decodes(base), let entry = try recovered.firstRecord(refusedBy: decodes, initialState: initial) else {
        // The snapshot's own state does not decode: another build's shape.
        let file = recovered.snapshot?.path ?? recovered.directory
        let version = recovered.snapshot?.version ?? 0
        throw RecoveryFailure(description: "\(StateDecodingFailure(error, path: file, version: version))")
      }
      let failure = StateDecodingFailure(error, path: entry.path, version: entry.version)
      throw UnusableRecord(
        entry: entry,
        problem: "the state after it does not decode at \(failure.field) (the state before it does): \(failure.detail)")
    }
  }

  /// A record recovery read whole (its checksum is valid) that the state
  /// cannot be rebuilt with.
  struct UnusableRecord: Error, CustomStringConvertible {
    let entry: JournalEntry
    /// What is wrong with it.
    let problem: String

    var description: String {
      "the record of version \(entry.version) at byte \(entry.offset) of \(entry.path) cannot be used: \(problem)"
    }
  }

  /// A new lineage's name (``Epoch/random()``).
  static func newEpoch() -> String { Epoch.random() }
}

/// Why the daemon cannot start from what is on disk (exit status 65). The
/// files are left as they were.
struct RecoveryFailure: Error, CustomStringConvertible {
  let description: String
}
