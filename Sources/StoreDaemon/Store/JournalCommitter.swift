import ComposableCore
import JSON
import Journal
import Wire

/// The batch and its commit: the actions reduced from one batch of commands
/// are appended to the journal together, with one sync under the default
/// policy (group commit), before any client hears of them or any effect of
/// them starts (docs/DURABILITY.md). It is the store's ``EffectExecutor``:
/// the starts wait in the open ``Batch``, and go to the worker supervisor
/// once it is durable. Confined to the store loop's thread.
final class JournalCommitter: EffectExecutor {
  /// What committing the open batch came to.
  enum Outcome {
    /// The batch is durable (or had nothing to record): let it go.
    case durable(Batch)
    /// The journal refused the batch: undo it.
    case refused(Batch, JournalWriteError)
  }

  let journal: JournalDirectory
  let epoch: String
  /// The app's schema version, written in each snapshot.
  let schema: Int
  private let writer: JournalWriter
  #if DEBUG
    private let snapshotPolicy = JournalCommitter.debugSnapshotPolicy ?? .standard
  #else
    private let snapshotPolicy = SnapshotPolicy.standard
  #endif
  private let syncPolicy: SyncPolicy
  private let supervisor: WorkerSupervisor
  /// The actions reduced since the last commit.
  private(set) var batch: Batch?
  /// Why writes are refused for good (a failed sync or I/O error), if they are.
  private(set) var writesRefused: String?

  init(
    journal: JournalDirectory, writer: JournalWriter, epoch: String, schema: Int, syncPolicy: SyncPolicy,
    supervisor: WorkerSupervisor
  ) {
    self.schema = schema
    self.journal = journal
    self.writer = writer
    self.epoch = epoch
    self.syncPolicy = syncPolicy
    self.supervisor = supervisor
  }

  var isOpen: Bool { batch != nil }

  func open(_ batch: Batch) {
    precondition(self.batch == nil, "a batch is already open")
    self.batch = batch
  }

  /// Adds a reduced action's record to the open batch.
  func record(_ record: JournalRecord) {
    batch?.append(record)
  }

  /// Notes an answer of the open batch, to give again should it be refused.
  func note(_ answer: Batch.Answer) {
    batch?.append(answer)
  }

  // MARK: EffectExecutor

  func start(_ request: EffectRequest, id: EffectID) {
    guard let batch else { return supervisor.start(request, id: id) }
    batch.hold(request, id: id)
  }

  func cancel(_ id: EffectID) {
    if batch?.cancelStart(id) == true { return }
    supervisor.cancel(id)
  }

  // MARK: Commit

  /// Appends the open batch's records to the journal, if a batch is open;
  /// `version` is the store's, the last the batch reduced.
  func commit(version: UInt64) -> Outcome? {
    guard let batch else { return nil }
    self.batch = nil
    guard !batch.records.isEmpty else { return .durable(batch) }
    do throws(JournalWriteError) {
      _ = try writer.append(batch.records)
    } catch {
      let versions = "\(batch.before.version + 1)…\(version)"
      if !error.writerStillUsable {
        writesRefused =
          "writes are refused since the journal failed (\(error)); the state stays readable at version "
          + "\(batch.before.version), and restarting \(DaemonName.current) recovers from the journal"
        Log.error("journal: \(error); refusing every write from now on (versions \(versions) were undone)")
      } else {
        Log.error("journal: \(error); versions \(versions) were undone and their senders told")
      }
      return .refused(batch, error)
    }
    return .durable(batch)
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
      Log.info("wrote a snapshot at version \(version) (\(result.bytes) bytes); older journal segments were dropped")
    } catch {
      Log.warning(
        "could not write a snapshot at version \(version): \(error); the journal keeps growing until one succeeds")
    }
  }

  func close() throws {
    try writer.close()
  }

  /// The journal as `tcactl status` shows it.
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
