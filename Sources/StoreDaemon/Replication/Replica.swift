import Dispatch
import Glibc
import JSON
import Journal
import Platform
import Replication
import Synchronization

/// A replicated daemon's part in its store's log in etcd
/// (docs/OPERATIONS.md, "A store across machines").
///
/// Every daemon starts as a standby: its thread follows the log from the
/// version its journal ends at, handing each batch of records to the store
/// loop (``LoopCommand/replicated(_:)``), which applies their patches,
/// publishes them and writes them to its own journal. When no daemon holds
/// the leader key, the thread campaigns for it; the winner finishes the log,
/// tells the loop to take over (``LoopCommand/takeOver``) and from then on
/// renews the lease and compacts the log after snapshots. The journal's
/// sync thread appends each batch through ``append(_:)`` before it counts
/// as durable.
///
/// A daemon that can no longer lead or follow (deposed, its lease expired,
/// etcd out of reach for the lease's time, the log compacted past it) stops
/// at once with status 75, the way a crash would: nothing not yet committed
/// is acknowledged, and started again it follows the log.
final class Replica: Sendable {
  /// The exit status of a daemon that stopped leading or following.
  static let exitStatus: Int32 = 75

  enum Role: String, Sendable {
    case following, leading
  }

  private struct Shared {
    var role = Role.following
    /// The leader as last seen, for the error a standby gives a sender.
    var leader: LeaderInfo? {
      didSet { if let leader, leader != oldValue { leaderChanges += 1 } }
    }
    /// How many times the leader seen changed (the first one seen counts).
    var leaderChanges = 0
    var leadership: ReplicatedLog.Leadership?
    /// The log's head as this daemon knows it.
    var head: UInt64 = 0
    /// A snapshot to make the log's base, from the loop.
    var compaction: Compaction?
    var isStopping = false
  }

  let options: ReplicationOptions
  /// This daemon as its leader key would name it.
  let me: LeaderInfo
  /// The epoch of this daemon's journal, which the store's must be.
  let epoch: String
  /// A snapshot to make the log's base: its version, state and the app's
  /// schema the state is in.
  struct Compaction: Sendable {
    let version: UInt64
    let state: [UInt8]
    let schema: Int
  }
  /// Whether the store was in etcd when the journal was checked against
  /// it (``ReplicaSetup``): if not, a log another daemon starts is one this
  /// journal was never checked against.
  private let storeWasInEtcd: Bool
  private let shared = Mutex(Shared())
  /// The sync thread's connection to etcd, apart from the replica thread's.
  private let appender: Mutex<ReplicatedLog>
  /// Wakes the leader's thread for a compaction, the end of one, or a stop.
  private let wake = DispatchSemaphore(value: 0)
  /// Whether a compaction is under way.
  private let compacting = Atomic<Bool>(false)
  private let post: @Sendable (LoopCommand) -> Void

  init(
    options: ReplicationOptions, me: LeaderInfo, epoch: String, storeWasInEtcd: Bool,
    post: @escaping @Sendable (LoopCommand) -> Void
  ) {
    self.storeWasInEtcd = storeWasInEtcd
    self.options = options
    self.me = me
    self.epoch = epoch
    self.post = post
    appender = Mutex(options.makeLog())
  }

  var role: Role { shared.withLock { $0.role } }

  /// Who leads, as far as this daemon knows.
  var leader: LeaderInfo? { shared.withLock { $0.leader } }

  /// The replication as `tcactl status` shows it.
  var status: JSONValue {
    shared.withLock { shared in
      var object: JSONObject = [
        "store": .string(options.storeID), "node": .string(me.node), "role": .string(shared.role.rawValue),
        "head": .int(Int(clamping: shared.head)),
        "etcd": .array(JSONArray(options.endpoints.map { .string($0.description) })),
      ]
      if let leader = shared.leader {
        var described: JSONObject = ["node": .string(leader.node), "socket": .string(leader.socket)]
        if let address = leader.address { described["address"] = .string(address) }
        object["leader"] = .object(described)
      }
      return .object(object)
    }
  }

  /// This daemon's role, the log's head as it knows it, and how many
  /// times it saw the leader change, for the metrics.
  var figures: (role: Role, head: UInt64, leaderChanges: Int) {
    shared.withLock { ($0.role, $0.head, $0.leaderChanges) }
  }

  /// Starts following the log after `version`, on a thread of its own.
  func start(after version: UInt64) throws {
    shared.withLock { $0.head = version }
    try DetachedThread.start(name: "replica") { [self] in
      follow(after: version)
    }
  }

  // MARK: Leading

  /// Appends a durable batch's records to the log, as the leader; returns
  /// once etcd has committed them. Called by the journal's sync thread, one
  /// batch at a time. A daemon that cannot append stops (``stepDown(_:)``).
  func append(_ records: [JournalRecord]) {
    guard let first = records.first, let last = records.last else { return }
    let (leadership, head) = shared.withLock { ($0.leadership, $0.head) }
    guard let leadership else { stepDown("versions \(first.version)…\(last.version) were reduced by a standby") }
    do throws(ReplicationError) {
      let committed = try appender.withLock { log throws(ReplicationError) in
        try log.append(records, after: head, as: leadership)
      }
      shared.withLock { $0.head = committed }
    } catch {
      stepDown("cannot append versions \(first.version)…\(last.version) to the log: \(error)")
    }
  }

  /// Asks the leader's thread to make the snapshot at `version` the log's
  /// base (after the loop wrote it to its own journal).
  func compact(version: UInt64, state: [UInt8], schema: Int) {
    shared.withLock { $0.compaction = Compaction(version: version, state: state, schema: schema) }
    wake.signal()
  }

  /// A clean stop: a leader gives the lease up, so a standby takes over
  /// without waiting for it to expire.
  func stop() {
    shared.withLock { $0.isStopping = true }
    wake.signal()
    guard let leadership = shared.withLock({ $0.leadership }) else { return }
    options.makeLog().resign(leadership)
    Log.info("replication: gave up the leadership of the store '\(options.storeID)'")
  }

  /// Stops the process at once, as a crash would, so that nothing is
  /// acknowledged that the log does not hold.
  func stepDown(_ reason: String) -> Never {
    if shared.withLock({ $0.isStopping }) {
      // A clean stop gave the lease up: what fails now is that, and the
      // loop answers its clients before the process exits.
      Log.info("replication: stopping (\(reason))")
      while true { pause() }
    }
    Log.error(
      "replication: \(reason); stopping (status \(Self.exitStatus)) so that nothing uncommitted is acknowledged; "
        + "started again, \(DaemonName.current) follows the log of the store '\(options.storeID)'")
    _exit(Self.exitStatus)
  }

  // MARK: The thread

  /// Follows the log, campaigning whenever there is no leader; returns
  /// never (leading ends in ``stepDown(_:)`` or a stop).
  private func follow(after version: UInt64) {
    let log = options.makeLog()
    var applied = version
    var watch: EtcdWatch?
    var lastProblem = ""
    while !shared.withLock({ $0.isStopping }) {
      do throws(ReplicationError) {
        guard let head = try log.head() else {
          // A store not yet in etcd: its first leader starts its log.
          if try campaign(log, applied: &applied) { return }
          usleep(200_000)
          continue
        }
        guard storeWasInEtcd else {
          stepDown(
            "another daemon started the store's log after this one checked its journal; started again, it checks "
              + "its journal against that log")
        }
        guard head.epoch == epoch else {
          stepDown(
            "the store's epoch in etcd is \(head.epoch), and this daemon's journal's is \(epoch): its journal is "
              + "another lineage of versions, which it sets aside at its next start")
        }
        guard applied <= head.version else {
          stepDown(
            "this daemon's journal goes to version \(applied), past the log's head \(head.version); started again, "
              + "it sets aside what the log does not hold")
        }
        let (records, revision) = try log.records(after: applied)
        if let last = records.last {
          post(.replicated(records))
          applied = last.version
          shared.withLock { $0.head = applied }
        }
        if let current = try log.leader() {
          shared.withLock { $0.leader = current.info }
        } else if try campaign(log, applied: &applied) {
          return
        }
        if watch == nil { watch = try log.watch(after: revision) }
        // Any change to the store's keys (a batch, the leader going) or a
        // second gone: look again.
        do {
          let events = try watch?.next(until: .now + .seconds(1)) ?? []
          // A watch etcd ended for a compaction is made again.
          if events.contains(where: { if case .compacted = $0 { true } else { false } }) {
            watch?.close()
            watch = nil
          }
        } catch {
          watch?.close()
          watch = nil
        }
        lastProblem = ""
      } catch {
        if case .compacted = error {
          stepDown("the log was compacted past version \(applied), where this daemon is (\(error))")
        }
        if case .damaged = error { stepDown("\(error)") }
        watch?.close()
        watch = nil
        let problem = "\(error)"
        if problem != lastProblem { Log.warning("replication: following the log: \(problem); trying again") }
        lastProblem = problem
        usleep(200_000)
      }
    }
  }

  /// Campaigns for the leader key; true once this daemon leads (and the
  /// thread has run the leadership to its end).
  private func campaign(_ log: ReplicatedLog, applied: inout UInt64) throws(ReplicationError) -> Bool {
    // The lease counts from its grant, which comes after this.
    let asked = ContinuousClock.now
    guard let leadership = try log.campaign(as: me, ttl: options.leaseTTL) else { return false }
    do throws(ReplicationError) {
      try takeOver(log, leadership, applied: &applied)
    } catch {
      log.resign(leadership)
      throw error
    }
    lead(leadership, grantedNoEarlierThan: asked)
    return true
  }

  /// Finishes the log (or starts it, for a new store) and hands the store
  /// loop the leadership.
  private func takeOver(
    _ log: ReplicatedLog, _ leadership: ReplicatedLog.Leadership, applied: inout UInt64
  ) throws(ReplicationError) {
    if try log.head() == nil {
      let base = askLoopForBase()
      guard
        try log.initialize(
          epoch: epoch, version: base.version, schema: base.schema, state: base.state, as: leadership)
      else {
        throw .deposed("another daemon started the store's log meanwhile")
      }
      Log.info(
        "replication: started the log of the store '\(options.storeID)' in etcd after version \(base.version) "
          + "(epoch \(epoch))")
      applied = base.version
    }
    guard let head = try log.head(), head.epoch == epoch else {
      throw .damaged("the store's epoch changed while this daemon took over")
    }
    let (records, _) = try log.records(after: applied)
    if let last = records.last {
      post(.replicated(records))
      applied = last.version
    }
    guard applied == head.version else {
      throw .damaged("the log ends at version \(applied), and its head says \(head.version)")
    }
    shared.withLock {
      $0.role = .leading
      $0.leadership = leadership
      $0.head = applied
      $0.leader = me
    }
    post(.takeOver)
    Log.info("replication: leading the store '\(options.storeID)' from version \(applied) as \(me.node)")
  }

  /// The leader's thread: renews the lease a third of its time apart and
  /// steps down before it could have lapsed unrenewed (half a period
  /// early, counted from when the last renewal that succeeded was sent),
  /// so that a cut-off leader stops its effects before a standby may take
  /// over and start them again. Compactions run on a thread of their own.
  private func lead(_ leadership: ReplicatedLog.Leadership, grantedNoEarlierThan asked: ContinuousClock.Instant) {
    let ttl = Duration.seconds(leadership.ttl)
    let period = ttl / 3
    // Each renewal may take half a period, over every member.
    let renewer = options.makeLog(attempt: period / 2)
    var renewed = asked
    var nextRenewal = renewed
    while true {
      let stepDownAt = renewed + ttl - period / 2
      let wakeAt = min(nextRenewal, stepDownAt)
      if wakeAt > .now {
        _ = wake.wait(timeout: .now() + .milliseconds(Int((wakeAt - .now).wholeMilliseconds) + 1))
      }
      let (stopping, compaction) = shared.withLock { shared in
        defer { shared.compaction = nil }
        return (shared.isStopping, shared.compaction)
      }
      if stopping { return }
      if let compaction { compactBeside(compaction, leadership) }
      if ContinuousClock.now >= nextRenewal {
        let sent = ContinuousClock.now
        do throws(ReplicationError) {
          guard try renewer.keepAlive(leadership) else { stepDown("the leader's lease expired") }
          renewed = sent
          nextRenewal = sent + period
        } catch {
          nextRenewal = .now + period / 4
          if ContinuousClock.now >= renewed + ttl - period / 2 {
            stepDown("the leader's lease could not be renewed before it would lapse: \(error)")
          }
        }
      }
      if ContinuousClock.now >= renewed + ttl - period / 2 {
        stepDown("the leader's lease could not be renewed before it would lapse")
      }
    }
  }

  /// Makes a snapshot the log's base on a thread of its own, one at a time,
  /// so that the lease's renewal never waits for it.
  private func compactBeside(
    _ compaction: Compaction, _ leadership: ReplicatedLog.Leadership
  ) {
    guard compacting.exchange(true, ordering: .acquiringAndReleasing) == false else {
      // One is under way: this one waits for it to end (which wakes this
      // thread), unless a later snapshot asks first. Dropped, the last
      // snapshot before the store goes quiet would never become the base.
      shared.withLock { shared in
        if (shared.compaction?.version ?? 0) < compaction.version { shared.compaction = compaction }
      }
      #if DEBUG
        Self.noteCompactionQueued()
      #endif
      return
    }
    do {
      try DetachedThread.start(name: "replica-compaction") { [self] in
        defer {
          compacting.store(false, ordering: .releasing)
          wake.signal()
        }
        #if DEBUG
          Self.waitAtCompactionGateIfAsked()
        #endif
        let log = options.makeLog()
        do throws(ReplicationError) {
          try log.compact(
            version: compaction.version, schema: compaction.schema, state: compaction.state, as: leadership)
          Log.info("replication: the log now starts after the snapshot at version \(compaction.version)")
        } catch {
          if case .deposed = error { stepDown("\(error)") }
          Log.warning("replication: could not compact the log to version \(compaction.version): \(error)")
        }
      }
    } catch {
      compacting.store(false, ordering: .releasing)
      Log.warning("replication: cannot start a compaction: \(error)")
    }
  }

  /// The state and version the loop has, to start a new store's log with.
  private func askLoopForBase() -> Compaction {
    let answer = Mutex<Compaction?>(nil)
    let done = DispatchSemaphore(value: 0)
    post(
      .replicaBase { base in
        answer.withLock { $0 = base }
        done.signal()
      })
    done.wait()
    // invariant: the loop sets the answer before it signals done
    return answer.withLock { $0! }
  }
}
