import Dispatch
import Glibc
import Journal
import Platform
import Synchronization

/// The thread beside the store loop that makes written batches durable
/// under `--fsync always`, or when the journal is replicated: the loop
/// writes a batch's records, asks for a sync (``requestSync(replicating:)``)
/// and goes on reducing the next batch; the thread runs `fdatasync` (under
/// `--fsync always`), appends the records to the replicated log as the
/// leader (``Replica/append(_:)``, which stops the daemon if it cannot),
/// and signals ``done``, a descriptor in the loop's event poll, with what
/// came of it. One sync is asked for at a time.
final class JournalSyncThread: Sendable {
  /// What a sync came to, and how long its `fdatasync` took (nil when the
  /// thread only appended to the replicated log).
  struct Outcome: Sendable {
    let result: Result<UInt64, JournalWriteError>
    let syncSeconds: Double?
  }

  /// The event poll's tokens for ``done``: one per store, by its number.
  static let tokenBase: UInt64 = 1 << 50

  /// The event poll's token for the ``done`` of the store numbered `store`.
  static func token(forStore store: Int) -> UInt64 { tokenBase + UInt64(store) }

  /// The number of the store whose ``done`` `token` is, if it is one.
  static func store(of token: UInt64) -> Int? {
    token >= tokenBase && token < tokenBase + (1 << 32) ? Int(token - tokenBase) : nil
  }

  /// Readable once a sync has finished, until ``takeOutcome()``.
  let done: WakeSignal
  private let writer: JournalWriter
  /// Whether the thread syncs the journal (`--fsync always`).
  private let syncsLocally: Bool
  /// The replicated log's link, which a leader's batches are appended through.
  private let replica: Replica?
  /// The records of the batch to append, as the leader.
  private let replicating = Mutex<[JournalRecord]>([])
  private let requests = DispatchSemaphore(value: 0)
  private let stopped = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  /// What the last sync came to, until the loop takes it.
  private let outcome = Mutex<Outcome?>(nil)

  init(writer: JournalWriter, syncsLocally: Bool, replica: Replica?) throws {
    self.writer = writer
    self.syncsLocally = syncsLocally
    self.replica = replica
    done = try WakeSignal()
    try DetachedThread.start(name: "journal-sync") { [self] in
      while true {
        requests.wait()
        if stopped.load(ordering: .acquiring) { break }
        #if DEBUG
          DebugSyncGate.waitIfAsked(writer: writer)
        #endif
        let started = MonotonicClock.now()
        let result =
          syncsLocally ? Result { () throws(JournalWriteError) in try writer.syncWritten() } : .success(0)
        let seconds = syncsLocally ? MonotonicClock.seconds(from: started, to: MonotonicClock.now()) : nil
        let records = replicating.withLock { records in
          defer { records = [] }
          return records
        }
        if case .success = result, let replica, !records.isEmpty { replica.append(records) }
        outcome.withLock { $0 = Outcome(result: result, syncSeconds: seconds) }
        done.signal()
      }
      finished.signal()
    }
  }

  /// Asks for what is written to be synced, and `records` (a leader's
  /// batch) to be appended to the replicated log.
  func requestSync(replicating records: [JournalRecord] = []) {
    replicating.withLock { $0 = records }
    requests.signal()
  }

  /// What the sync asked for came to, once it has finished; nil before.
  /// ``done`` is cleared first, so a signal that comes after is not lost
  /// (at worst it wakes the loop once more for nothing).
  func takeOutcome() -> Outcome? {
    done.clear()
    return outcome.withLock { outcome in
      defer { outcome = nil }
      return outcome
    }
  }

  /// Waits until the sync asked for has finished, and returns what it came to.
  func waitForOutcome() -> Outcome {
    while true {
      if let taken = takeOutcome() { return taken }
      var descriptor = pollfd(fd: done.descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, -1)
    }
  }

  /// Ends the thread once the sync under way, if any, has finished.
  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    requests.signal()
    finished.wait()
  }
}
