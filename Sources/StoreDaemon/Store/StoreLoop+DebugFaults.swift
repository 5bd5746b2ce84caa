#if DEBUG
  import FoundationEssentials
  import Glibc
  import Journal
  import Wire

  /// Faults the tests inject into debug builds only; release builds compile
  /// none of this.
  /// `STOREDAEMON_DEBUG_STALL=PATH:SECONDS`: when a client sends the action
  /// at PATH, the loop stalls for SECONDS before reducing it, as a reducer
  /// stuck in a loop would (the watchdog test).
  private let debugStall: (path: String, duration: Duration)? = {
    guard let value = ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_STALL"],
      let colon = value.lastIndex(of: ":"), let seconds = Double(value[value.index(after: colon)...])
    else { return nil }
    return (String(value[..<colon]), .milliseconds(Int(seconds * 1000)))
  }()

  func debugStallIfAsked(_ input: ClientMessage.ActionInput) {
    guard let stall = debugStall, case .path(let path, _) = input, path == stall.path else { return }
    Log.warning("stalling the store loop for \(stall.duration) (STOREDAEMON_DEBUG_STALL)")
    usleep(useconds_t(clamping: Int(stall.duration / .microseconds(1))))
  }

  /// `STOREDAEMON_DEBUG_KILL_DURING_MIGRATION=before-record|after-record`:
  /// the daemon kills itself with SIGKILL while migrating the state to a
  /// newer schema, before the migration's record is appended, or once it is
  /// durable and before the snapshot is written (the kill -9 tests).
  func killDuringMigrationIfAsked(at point: String) {
    guard ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_KILL_DURING_MIGRATION"] == point else { return }
    Log.warning(
      "killing \(DaemonName.current) during the migration, \(point) (STOREDAEMON_DEBUG_KILL_DURING_MIGRATION)")
    kill(getpid(), SIGKILL)
  }

  extension JournalCommitter {
    /// `STOREDAEMON_DEBUG_SNAPSHOT_RECORDS=N`: a snapshot after every N
    /// records, whatever their size, so that a test (or the script making
    /// upgrade fixtures) can have a snapshot at a version it chooses.
    static let debugSnapshotPolicy: SnapshotPolicy? = {
      guard let value = ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_SNAPSHOT_RECORDS"],
        let records = UInt64(value), records > 0
      else { return nil }
      return SnapshotPolicy(journalBytes: nil, records: records, minimumRatioToSnapshot: 0)
    }()
  }

  /// `STOREDAEMON_DEBUG_SYNC_GATE=PATH`: every sync of the journal beside
  /// the loop first creates `PATH.waiting`, then waits until a file exists
  /// at PATH; if that file says `fail`, the sync fails as on an I/O error.
  /// The loop creates `PATH.second` once a batch is reduced while another
  /// is being synced. So a test can hold a sync, put a second batch on top
  /// of it, and refuse the first.
  enum DebugSyncGate {
    static let path: String? = ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_SYNC_GATE"]

    static func waitIfAsked(writer: JournalWriter) {
      guard let path else { return }
      _ = FileManager.default.createFile(atPath: path + ".waiting", contents: nil)
      while access(path, F_OK) != 0 { usleep(10_000) }
      if let said = FileManager.default.contents(atPath: path), String(decoding: said, as: UTF8.self).hasPrefix("fail")
      {
        writer.failNextSyncForTesting()
      }
    }

    static func noteSecondBatch() {
      guard let path, access(path + ".second", F_OK) != 0 else { return }
      _ = FileManager.default.createFile(atPath: path + ".second", contents: nil)
    }
  }

  extension HistoryReader {
    /// `STOREDAEMON_DEBUG_HISTORY_GATE=PATH`: every read of the journal for
    /// `log` or `get` with `at` first creates `PATH.waiting`, then waits
    /// until a file exists at PATH, so that a test can act while a read is
    /// under way and then let it go on.
    static let debugGate: String? = ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_HISTORY_GATE"]

    static func waitAtGateIfAsked() {
      guard let gate = debugGate else { return }
      _ = FileManager.default.createFile(atPath: gate + ".waiting", contents: nil)
      while access(gate, F_OK) != 0 { usleep(10_000) }
    }
  }

  extension Replica {
    /// `STOREDAEMON_DEBUG_COMPACTION_GATE=PATH`: every compaction of the
    /// replicated log first creates `PATH.waiting`, then waits until a file
    /// exists at PATH; a compaction asked for meanwhile creates
    /// `PATH.queued` as it waits its turn. So a test can ask for another
    /// while one is under way.
    static let compactionGate = ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_COMPACTION_GATE"]

    static func waitAtCompactionGateIfAsked() {
      guard let gate = compactionGate else { return }
      _ = FileManager.default.createFile(atPath: gate + ".waiting", contents: nil)
      while access(gate, F_OK) != 0 { usleep(10_000) }
    }

    static func noteCompactionQueued() {
      guard let gate = compactionGate else { return }
      _ = FileManager.default.createFile(atPath: gate + ".queued", contents: nil)
    }
  }
#endif
