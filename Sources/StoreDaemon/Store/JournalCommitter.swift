import ComposableCore
import JSON
import Journal
import Metrics
import Platform
import Wire

/// The batch and its commit: the actions reduced from one batch of commands
/// are appended to the journal together, with one sync under the default
/// policy (group commit), before any client hears of them or any effect of
/// them starts (docs/DURABILITY.md). It is the store's ``EffectExecutor``:
/// the starts wait in the open ``Batch``, and go to the worker supervisor
/// once it is durable. Confined to the store loop's thread.
///
/// Under `--fsync always` the sync runs beside the loop
/// (``JournalSyncThread``): a closed batch is written and then *syncing*
/// while the next one is open, and the open one is closed only once the
/// sync has finished. So two batches are in flight at most, and the longer
/// a sync takes, the more actions the next one gathers.
final class JournalCommitter: EffectExecutor {
  /// What closing a batch, or its sync, came to.
  enum Outcome {
    /// The batch is durable (or had nothing to record): let it go.
    case durable(Batch)
    /// The batch is written, and being synced beside the loop.
    case syncing
    /// The journal refused these batches, oldest first: undo them. A
    /// refused sync takes the open batch along, as it was reduced on top.
    case refused([Batch], JournalWriteError)
  }

  let journal: JournalDirectory
  let epoch: String
  /// The app's schema the state is in, written in each snapshot: this
  /// build's, but for a replicated store of an older one that this daemon
  /// follows until it leads and migrates it.
  var schema: Int
  private let writer: JournalWriter
  #if DEBUG
    private let snapshotPolicy = JournalCommitter.debugSnapshotPolicy ?? .standard
  #else
    private let snapshotPolicy = SnapshotPolicy.standard
  #endif
  private let syncPolicy: SyncPolicy
  private let workers: any EffectExecutor
  /// Syncs written batches beside the loop, under `--fsync always`.
  private let syncThread: JournalSyncThread?
  /// The actions reduced since the last batch closed.
  private(set) var batch: Batch?
  /// The closed batch being synced, if one is.
  private(set) var syncing: Batch?
  /// The number of the next batch opened.
  private var nextNumber: UInt64 = 1
  /// The storage of the last batch's encoded records, for the next one.
  private var spareBuffer: [UInt8] = []
  /// How many answers the last batch closed gave, for the next one's room.
  private var lastAnswerCount = 0
  /// How long each `fdatasync` of a batch took, under `--fsync always`.
  private(set) var syncSeconds = Histogram.seconds
  /// The bytes of records written to the journal.
  private(set) var bytesWritten = 0
  /// Why writes are refused for good (a failed sync or I/O error), if they are.
  private(set) var writesRefused: String?
  /// The replicated log's link, when the journal is replicated.
  let replica: Replica?
  /// Whether batches are appended to the replicated log: once this daemon
  /// leads its store (a standby's batches come from the log).
  var replicates = false

  init(
    journal: JournalDirectory, writer: JournalWriter, epoch: String, schema: Int, syncPolicy: SyncPolicy,
    workers: any EffectExecutor, replica: Replica?
  ) throws {
    self.replica = replica
    self.schema = schema
    self.journal = journal
    self.writer = writer
    self.epoch = epoch
    self.syncPolicy = syncPolicy
    self.workers = workers
    syncThread =
      syncPolicy == .always || replica != nil
      ? try JournalSyncThread(writer: writer, syncsLocally: syncPolicy == .always, replica: replica) : nil
  }

  var isOpen: Bool { batch != nil }

  /// Whether the open batch may be closed now: one is open, and no other
  /// is being synced.
  var mayClose: Bool { batch != nil && syncing == nil }

  /// The descriptor that is readable once a sync has finished, for the
  /// loop's event poll (``JournalSyncThread/token``); nil when batches are
  /// not synced beside the loop.
  var syncDone: Int32? { syncThread?.done.descriptor }

  /// Opens a batch that goes back to `before` if refused.
  func open(before: Batch.Before, gate: HoldGate) {
    // invariant: the turn opens a batch only after the last one closed; a client cannot change that
    precondition(batch == nil, "a batch is already open")
    batch = Batch(
      before: before, number: nextNumber, gate: gate, buffer: spareBuffer, expectedAnswers: lastAnswerCount)
    spareBuffer = []
    nextNumber += 1
  }

  /// Adds a reduced action's record to the open batch, kept as a value
  /// too: for the log's followers, and always when the journal is
  /// replicated (``keepsRecords``).
  func record(_ record: JournalRecord) {
    batch?.append(record)
  }

  /// Adds a reduced action's record to the open batch as the journal
  /// writes it, from the canonical JSON of its parts: what the loop does
  /// when nothing reads the record as a value.
  func record(
    version: UInt64, time: Int64, action: [UInt8], inputs: JSONValue?, origin: RecordOrigin, patch: [UInt8]
  ) {
    batch?.append(version: version, time: time, action: action, inputs: inputs, origin: origin, patch: patch)
  }

  /// Whether every record must be kept as a value: the replicated log
  /// takes a batch's records as values, and a store set up to replicate may
  /// lead at any time.
  var keepsRecords: Bool { replica != nil }

  /// Notes an answer of the open batch, to give again should it be refused.
  func note(_ answer: Batch.Answer) {
    batch?.append(answer)
  }

  // MARK: EffectExecutor

  func start(_ request: EffectRequest, id: EffectID) {
    guard let batch else { return workers.start(request, id: id) }
    batch.hold(request, id: id)
  }

  func cancel(_ id: EffectID) {
    if batch?.cancelStart(id) == true { return }
    if let syncing, syncing.holdsStart(id) {
      // It starts once the syncing batch is durable; the open batch cancels
      // it once it is durable in turn (and not at all if it is refused,
      // which puts back a state where the effect still runs).
      if let batch { batch.holdCancel(id) } else { _ = syncing.cancelStart(id) }
      return
    }
    workers.cancel(id)
  }

  // MARK: Commit

  /// Whether batches are synced beside the loop (`--fsync always`, or a
  /// replicated journal).
  var syncsBeside: Bool { syncThread != nil }

  /// Closes the open batch, which ended at `version` with `document`, and
  /// writes its records, if ``mayClose``. Under `--fsync always` the loop
  /// syncs them itself when it has nothing else to do (`syncHere`: a thread
  /// would only add its wake-ups to the wait); otherwise their sync is asked
  /// of the thread beside it, and its outcome comes from
  /// ``takeSyncOutcome()``.
  func close(version: UInt64, document: () -> JSONValue, syncHere: Bool) -> Outcome? {
    guard let batch, syncing == nil else { return nil }
    self.batch = nil
    batch.close(version: version)
    lastAnswerCount = batch.answers.count
    guard !batch.encoded.isEmpty else { return .durable(batch) }
    do throws(JournalWriteError) {
      bytesWritten += try writer.write(batch.encoded).bytes
      spareBuffer = batch.takeBuffer()
    } catch {
      noteRefusal(error, undoing: [batch])
      return .refused([batch], error)
    }
    if snapshotPolicy.shouldSnapshot(writer.progress) { batch.keepForSnapshot(document()) }
    guard let syncThread else { return .durable(batch) }
    if replicates {
      syncing = batch
      syncThread.requestSync(replicating: batch.records)
      return .syncing
    }
    if syncHere {
      let started = MonotonicClock.now()
      defer { syncSeconds.observe(MonotonicClock.seconds(from: started, to: MonotonicClock.now())) }
      do throws(JournalWriteError) {
        try writer.syncWritten()
      } catch {
        noteRefusal(error, undoing: [batch])
        return .refused([batch], error)
      }
      return .durable(batch)
    }
    syncing = batch
    syncThread.requestSync()
    return .syncing
  }

  /// What the sync came to, if it has finished (the loop was told by
  /// ``syncDone``).
  func takeSyncOutcome() -> Outcome? {
    // Taken (and the signal cleared) first: a signal left over from a sync
    // ``waitForSync()`` already settled must not stay readable.
    guard let result = syncThread?.takeOutcome(), syncing != nil else { return nil }
    return finishSync(result)
  }

  /// Waits for the sync under way, if any, and returns what it came to.
  func waitForSync() -> Outcome? {
    guard syncing != nil, let syncThread else { return nil }
    return finishSync(syncThread.waitForOutcome())
  }

  private func finishSync(_ outcome: JournalSyncThread.Outcome) -> Outcome {
    // invariant: the loop finishes only a sync it started; a journal or a client cannot change that
    guard let synced = syncing else { preconditionFailure("no batch is being synced") }
    syncing = nil
    if let seconds = outcome.syncSeconds { syncSeconds.observe(seconds) }
    switch outcome.result {
    case .success:
      return .durable(synced)
    case .failure(let error):
      var refused = [synced]
      if let open = batch {
        refused.append(open)
        batch = nil
      }
      noteRefusal(error, undoing: refused)
      return .refused(refused, error)
    }
  }

  /// Logs a refusal, and refuses every later write if the journal cannot
  /// take any.
  private func noteRefusal(_ error: JournalWriteError, undoing batches: [Batch]) {
    let first = batches[0].before.version + 1
    let versions = "the versions from \(first) on were"
    if !error.writerStillUsable {
      writesRefused =
        "writes are refused since the journal failed (\(error)); the state stays readable at version "
        + "\(first - 1), and restarting \(DaemonName.current) recovers from the journal"
      Log.write(
        .error, "journal: \(error); refusing every write from now on (\(versions) undone)",
        fields: [("VERSION", String(first))])
    } else {
      Log.write(
        .error, "journal: \(error); \(versions) undone and their senders told", fields: [("VERSION", String(first))])
    }
  }

  /// Why the actions of a refused batch were not applied, for their senders.
  func reason(for error: JournalWriteError) -> String {
    writesRefused ?? "the journal could not record it: \(error)"
  }

  /// Writes a snapshot of `document` at `version` when the policy says so.
  func snapshotIfDue(version: UInt64, document: JSONValue) {
    guard snapshotPolicy.shouldSnapshot(writer.progress) else { return }
    do {
      let result = try journal.writeSnapshot(version: version, state: document, epoch: epoch, schema: schema)
      Log.write(
        .info, "wrote a snapshot at version \(version) (\(result.bytes) bytes); older journal segments were dropped",
        fields: [("VERSION", String(version))])
      // The log in etcd starts after it from now on, and stays bounded.
      if replicates, let replica {
        replica.compact(version: version, state: CanonicalJSON.encode(document), schema: schema)
      }
    } catch {
      Log.warning(
        "could not write a snapshot at version \(version): \(error); the journal keeps growing until one succeeds")
    }
  }

  #if DEBUG
    /// Makes the journal's next sync fail as on an I/O error, for the tests'
    /// in-memory harness.
    func failNextSyncForTesting() {
      writer.failNextSyncForTesting()
    }
  #endif

  /// Closes the journal; call once no batch is in flight.
  func close() throws {
    syncThread?.stop()
    try writer.close()
  }

  /// The journal as `tcactl status` shows it.
  /// Where the journal's writer is: versions written and durable, snapshot.
  var progress: JournalProgress { writer.progress }

  var status: JSONValue {
    let progress = writer.progress
    var object: JSONObject = [
      "fsync": .string(syncPolicy.rawValue),
      "durableVersion": .int(Int(clamping: progress.durableVersion)),
      "bytesSinceSnapshot": .int(progress.bytesSinceSnapshot),
    ]
    if let snapshot = progress.snapshotVersion { object["snapshotVersion"] = .int(Int(clamping: snapshot)) }
    if let writesRefused { object["writesRefused"] = .string(writesRefused) }
    return .object(object)
  }
}
