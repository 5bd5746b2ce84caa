import FoundationEssentials
import Glibc
import JSON
import Journal
import Platform
import Replication

/// Makes a replicated daemon's journal a prefix of its store's log before
/// recovery reads it (docs/OPERATIONS.md, "A store across machines"). The
/// log in etcd is the truth; the local journal is this daemon's copy:
///
/// - records after the log's base that the log does not hold, or holds
///   otherwise (written by a leader deposed before they committed), are set
///   aside, with the ones after them;
/// - a journal whose snapshot is older than the log's base (a standby
///   restarted after the log was compacted past it) catches up: the log's
///   snapshot is written into it as a snapshot of its own, compacting what
///   it covers;
/// - a journal of another epoch, or one whose snapshot is newer than the
///   log's head, cannot be checked against the log: it is moved aside
///   whole, to `journal.replaced-<time>`, and the log's snapshot starts a
///   new one.
///
/// Nothing is deleted. A store not yet in etcd leaves the journal as it is:
/// its first leader starts the log from it.
enum ReplicaSetup {
  /// Returns whether the store was in etcd: when it was not, the daemon
  /// must not follow a log another daemon starts later without checking
  /// its journal against it first (``Replica``).
  @discardableResult
  static func prepare(journalPath: String, options: ReplicationOptions) throws -> Bool {
    let log = options.makeLog()
    let head: ReplicatedLog.Head
    do {
      guard let read = try log.head() else { return false }
      head = read
    } catch {
      throw SetupError("cannot read the store '\(options.storeID)' from etcd: \(error)")
    }
    if access(journalPath, F_OK) == 0 {
      let journal = try JournalDirectory(path: journalPath)
      let recovered = try journal.recover()
      let snapshot = recovered.snapshot?.version ?? 0
      let isEmpty = recovered.snapshot == nil && recovered.records.isEmpty
      if isEmpty {
        // Nothing to keep: the log's snapshot starts it below.
      } else if recovered.epoch != head.epoch || snapshot > head.version {
        let reason =
          recovered.epoch != head.epoch
          ? "it is of epoch \(recovered.epoch ?? "none"), the store's is \(head.epoch)"
          : "its snapshot at version \(snapshot) is after the log's head at \(head.version)"
        let aside = journalPath + ".replaced-\(WallClock.milliseconds())"
        guard rename(journalPath, aside) == 0 else {
          throw SetupError("cannot move the journal \(journalPath) aside: \(String(cString: strerror(errno)))")
        }
        Log.warning("replication: moved the journal aside to \(aside) (\(reason)); starting from the log's snapshot")
      } else if snapshot < head.base.version {
        // Behind the log's base: the log's snapshot takes the journal
        // forward, as a snapshot of its own would, and what it covers is
        // compacted; records after it are checked against the log.
        let base = try installSnapshot(from: log, into: journal, options: options)
        Log.info(
          "replication: the journal's snapshot at version \(snapshot) is behind the log's base; caught up to the "
            + "log's snapshot at version \(base) (epoch \(head.epoch))")
        try setAsideWhatTheLogLacks(journal.recover(), journal: journal, log: log, head: head, options: options)
        return true
      } else {
        try setAsideWhatTheLogLacks(recovered, journal: journal, log: log, head: head, options: options)
        return true
      }
    }
    try install(log: log, journalPath: journalPath, options: options)
    return true
  }

  /// Sets aside the local records from the first the log does not hold as
  /// they are.
  private static func setAsideWhatTheLogLacks(
    _ recovered: RecoveredJournal, journal: JournalDirectory, log: ReplicatedLog, head: ReplicatedLog.Head,
    options: ReplicationOptions
  ) throws {
    guard let first = recovered.records.first else { return }
    let logged: [JournalRecord]
    do {
      logged = try log.records(after: first.version - 1).records
    } catch {
      throw SetupError("cannot read the log of the store '\(options.storeID)' from etcd: \(error)")
    }
    for (index, entry) in recovered.records.enumerated() {
      let local = try entry.decoded()
      if index < logged.count && logged[index] == local { continue }
      let why =
        index < logged.count
        ? "the store's log holds another record of version \(entry.version)"
        : "the store's log ends at version \(head.version)"
      for event in try journal.setAside(
        from: entry, problem: "\(why): written by a leader deposed before it was committed")
      {
        Log.warning("replication: \(event)")
      }
      return
    }
  }

  /// Starts a journal from the log's snapshot.
  private static func install(log: ReplicatedLog, journalPath: String, options: ReplicationOptions) throws {
    let journal = try JournalDirectory(path: journalPath)
    let base = try installSnapshot(from: log, into: journal, options: options)
    Log.info("replication: started the journal from the log's snapshot at version \(base)")
  }

  /// Writes the log's snapshot into `journal` (compacting what it covers);
  /// returns its version.
  private static func installSnapshot(
    from log: ReplicatedLog, into journal: JournalDirectory, options: ReplicationOptions
  ) throws -> UInt64 {
    let base: ReplicatedLog.Base
    let state: JSONValue
    let epoch: String
    do {
      guard let head = try log.head(), let snapshot = try log.snapshot() else {
        throw SetupError("the store '\(options.storeID)' went from etcd while this daemon started")
      }
      base = snapshot.base
      epoch = head.epoch
      state = try JSONParser.parse(snapshot.state)
    } catch let error as SetupError {
      throw error
    } catch {
      throw SetupError("cannot read the snapshot of the store '\(options.storeID)' from etcd: \(error)")
    }
    try journal.writeSnapshot(version: base.version, state: state, epoch: epoch, schema: base.schema)
    return base.version
  }
}
