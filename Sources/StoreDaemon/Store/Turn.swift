import ActionLanguage
import ComposableCore
import JSON
import Journal
import Metrics
import Platform
import Wire

/// The owner of a batch's whole life: the actions reduced from what one
/// pass of the loop took in are read, stepped through the store, published
/// to the subscribers, recorded in the open ``Batch``, committed to the
/// journal with one sync (group commit), and only then acknowledged and
/// let out, their frames and their effects' starts held until then; or, if
/// the journal refuses them, undone, the state put back and their senders
/// told (docs/DURABILITY.md).
///
/// The loop hands it what arrived (a client's send, a worker's reply) and
/// says when to commit; a request that reads the state first makes
/// everything reduced durable (``makeDurable()``). Its collaborators: the
/// ``Publisher`` (diffs to the subscribers), the ``JournalCommitter`` (the
/// journal, and the sync beside the loop under `--fsync always`), the
/// ``HistoryRequests`` (the log's followers) and the ``EffectWorkers``
/// (the effects, once durable: the ``WorkerSupervisor``'s processes, or a
/// test's scripted workers). Confined to the loop's thread.
final class Turn<App: HostedApp> {
  let store: Store<App.Root>
  let reader: ActionReader<App.Root.Action>
  let publisher: Publisher
  let committer: JournalCommitter
  /// Sends with `wait` whose effects are still running.
  private(set) var waits = SettledWaits()
  /// The wall clock each record's time is read from, in milliseconds since
  /// the Unix epoch; a test's harness scripts its own.
  var wallClock: () -> Int64 = { WallClock.milliseconds() }
  /// Whether the loop has nothing else to do now, so that a batch under
  /// `--fsync always` is synced on the loop's thread rather than beside it
  /// (a thread would only add its wake-ups to the wait). Set by the loop.
  var loopIsIdle: () -> Bool = { false }

  private let history: HistoryRequests
  private let workers: any EffectWorkers
  private let clients: ClientRegistry
  private let gate: HoldGate
  /// The root reducer, asked for the features' recovery actions.
  private let root: App.Root
  /// What each action's reducer drew from the date, UUID and random number
  /// dependencies, journaled with it so that a replay reproduces it.
  private let inputs: InputRecorder
  /// Encodes the state after each action, re-encoding only the parts it changed.
  private let stateEncoder = StateDocumentEncoder<App.Root.State>()
  /// The state before the open batch, to go back to if it is refused.
  private var stateBeforeBatch: App.Root.State
  /// The state before the batch being synced, to go back to if its sync is
  /// refused (the open batch is undone with it).
  private var stateBeforeSyncing: App.Root.State
  private var nextOrigin: Origin = 1

  /// The actions reduced, by case and sender, for the metrics.
  private(set) var actionCounts = ActionCounts()
  /// The versions each batch written to the journal held.
  private(set) var batchActions = Histogram.sizes
  /// How long each batch was open: from its first action read to its close.
  private(set) var turnSeconds = Histogram.seconds
  /// How long each batch took from its close to being durable: its write
  /// and, under `--fsync always`, the wait for its sync.
  private(set) var commitSeconds = Histogram.seconds
  /// When the open batch was opened.
  private var openedAt: MonotonicClock.Instant = 0
  /// When the batch being synced was closed.
  private var syncingClosedAt: MonotonicClock.Instant = 0

  init(
    store: Store<App.Root>, root: App.Root, inputs: InputRecorder, reader: ActionReader<App.Root.Action>,
    publisher: Publisher, committer: JournalCommitter, history: HistoryRequests, workers: any EffectWorkers,
    clients: ClientRegistry, gate: HoldGate
  ) {
    self.store = store
    self.root = root
    self.inputs = inputs
    self.reader = reader
    self.publisher = publisher
    self.committer = committer
    self.history = history
    self.workers = workers
    self.clients = clients
    self.gate = gate
    stateBeforeBatch = store.state
    stateBeforeSyncing = store.state
  }

  // MARK: Actions

  /// A client's send, from reading to acknowledging: the action is read
  /// (or refused with what was expected), reduced and published, then what
  /// it led to; its acknowledgement waits in the client's held outbox until
  /// the batch is durable. An action that reaches nothing is refused, with
  /// the state unchanged.
  func send(
    _ input: ClientMessage.ActionInput, id: Int, wait: Bool, from client: ConnectedClient,
    notLeader: (Replica) -> (message: String, leader: StoreLeader?)
  ) {
    // Opened first: a refusal waits, as an acknowledgement does, behind
    // the frames of the batches before it.
    open()
    let connection = client.connection
    var reading = ActionReading.unread
    let action: App.Root.Action
    do throws(MessageError) {
      action = try reader.read(input, reading: &reading)
    } catch {
      answer(.error(id: id, code: error.code, message: error.message), to: connection)
      return
    }
    if let reason = committer.writesRefused {
      answer(.error(id: id, code: .journal, message: "the action was not applied: \(reason)"), to: connection)
      return
    }
    if let replica = committer.replica, !committer.replicates {
      let refusal = notLeader(replica)
      answer(.notLeader(id: id, message: refusal.message, leader: refusal.leader), to: connection)
      return
    }
    let origin = nextOrigin
    if wait { waits.register(origin, connectionID: connection.id, requestID: id) }
    let sender = ActionSender(
      origin: origin, kind: .client, members: client.sender, sent: reading, recordPrefix: client.senderPrefix)
    let version: UInt64
    do throws(DroppedAction) {
      version = try store.reduceRefusingDropped(action, origin: origin, putBack: stateEncoder.putBack)
    } catch {
      inputs.discard()
      waits.remove(origin)
      let message =
        "\(reading.summary) was not applied: \(error.reason); the state is unchanged and no version was used"
      answer(.error(id: id, code: .invalidAction, message: message), to: connection)
      return
    }
    publish(version: version, action: action, sender: sender)
    reduceWaitingActions()
    nextOrigin += 1
    committer.note(.acknowledgement(connection, requestID: id, origin: origin))
    answer(.ack(id: id, version: version), to: connection)
  }

  /// Reduces the action a worker's reply maps to, in the open batch.
  func deliver(_ reply: EffectReply, to id: EffectID) {
    open()
    store.receive(reply, for: id)
    reduceWaitingActions()
  }

  /// Reduces the actions the failures the workers' side made up for requests
  /// that could not be carried out map to (a worker that died, a deadline).
  func deliverWorkerReplies() {
    while true {
      let replies = workers.takeReplies()
      if replies.isEmpty { return }
      open()
      for (reply, id) in replies {
        store.receive(reply, for: id)
        reduceWaitingActions()
      }
    }
  }

  /// After a crash, the features that were waiting on an effect (a roll, a
  /// fetch, an order) are told that it is gone: each one's recovery action
  /// (``Reducer/recoveryActions(for:)``) is reduced, recorded as sent by the
  /// recovery, all under one origin, and made durable. After a clean stop
  /// nothing waits (stopping failed every effect in flight). Returns the
  /// actions reduced, described.
  func reduceRecoveryActions() -> [String] {
    let waiting = root.recoveryActions(for: store.state)
    guard !waiting.isEmpty else { return [] }
    open()
    let origin = nextOrigin
    nextOrigin += 1
    let sender = ActionSender(
      origin: origin, kind: .recovery, members: ["recovery": .bool(true)], sent: nil, recordPrefix: nil)
    var names: [String] = []
    for action in waiting {
      let name = ActionPath.describe((try? CanonicalJSON.value(of: action)) ?? .null, schema: reader.schema)
      do throws(DroppedAction) {
        let version = try store.reduceRefusingDropped(action, origin: origin, putBack: stateEncoder.putBack)
        publish(version: version, action: action, sender: sender)
        names.append(name)
      } catch {
        inputs.discard()
        Log.error("the recovery action \(name) was not reduced: \(error.reason)")
      }
      reduceWaitingActions()
    }
    makeDurable()
    return names
  }

  /// Starts the effects of the action reduced last and reduces, one by one,
  /// the actions that effects sent or replies mapped to, publishing each as
  /// sent by an effect of its origin.
  private func reduceWaitingActions() {
    while store.reduceNext({ version, action, origin in
      publish(version: version, action: action, sender: .effect(origin: origin))
    }) {}
  }

  /// Publishes the version the store just reduced: its diff to the
  /// subscribers, its record to the open batch, its change to the sender
  /// waiting on it.
  private func publish(version: UInt64, action: App.Root.Action, sender: ActionSender) {
    let drawn = inputs.take()
    let published = publisher.publish(
      version: version, sent: sender.sent, action: { try CanonicalJSON.value(of: action) },
      update: { document in try store.withState { try stateEncoder.update(&document, to: $0) } },
      published: { record($0, version: version, inputs: drawn?.json, sender: sender) })
    if !published {
      // The encoder's last state is not this version's: a refused action
      // must not be undone to it.
      stateEncoder.stateWasReplaced()
    }
  }

  /// Journals a version the publisher published, and notes it for the
  /// sender's wait.
  private func record(
    _ publication: borrowing Publisher.Publication, version: UInt64, inputs: JSONValue?, sender: ActionSender
  ) {
    // The journal writes the canonical bytes, straight into the batch's
    // buffer. The record is made as a value only for what reads it as one
    // (the log's followers, the replicated log), and the origin's and the
    // patch's values only for the followers (a follower that comes later
    // reads this version from disk); the origin as JSON also when it has no
    // canonical bytes.
    let recordOrigin = sender.recordOrigin
    let time = wallClock()
    if let recordOrigin, !history.hasFollowers, !committer.keepsRecords {
      committer.record(
        version: version, time: time, action: publication.actionBytes, inputs: inputs, origin: recordOrigin,
        patch: publication.patchBytes)
    } else {
      let originBytes = recordOrigin?.canonicalBytes
      committer.record(
        JournalRecord(
          version: version, time: time,
          origin: history.hasFollowers || originBytes == nil ? sender.record : .null,
          action: publication.change.action, inputs: inputs,
          patch: history.hasFollowers ? JSONPatch.json(publication.change.patch) : .null,
          canonical: (publication.actionBytes, publication.patchBytes), canonicalOrigin: originBytes)
      )
    }
    waits.note(publication.change, origin: sender.origin)
    actionCounts.count(
      bytes: publication.actionBytes, json: publication.change.action, sender: sender.kind, schema: reader.schema)
  }

  // MARK: Answers

  /// Queues an answer, noted in the open batch (but for acknowledgements,
  /// noted apart, and `settled`) so that it is given again should the batch
  /// be refused. Answers are never dropped, nor a reason to drop a client:
  /// they are never refused, and the client's next requests wait while its
  /// unread answers fill its buffer.
  func answer(_ message: ServerMessage, to connection: Connection) {
    switch message {
    case .ack, .settled, .diff: break
    default: committer.note(.reply(connection, message))
    }
    publisher.answer(message, to: connection)
  }

  /// Tells each waiting client whose action's effects have all finished.
  func reportSettledWaits() {
    guard !waits.isEmpty else { return }
    let isSettled = { (origin: Origin) in self.store.isSettled(origin: origin) }
    guard waits.hasSettled(isSettled) else { return }
    // Opened before the waits are taken, so that a refused batch gives
    // them back to be told again.
    holdFramesWhileSyncing()
    for wait in waits.takeSettled(isSettled) {
      guard let client = clients[wait.connectionID] else { continue }
      answer(.settled(id: wait.requestID, version: store.version, changes: .array(wait.changes)), to: client.connection)
    }
  }

  /// Whether a send of connection `id` still waits for its effects.
  func waits(forConnection id: Int) -> Bool {
    waits.waits(forConnection: id)
  }

  /// Forgets the waits of a connection that was let go.
  func forgetWaits(ofConnection id: Int) {
    waits.removeAll(forConnection: id)
  }

  // MARK: The batch

  /// Starts a batch unless one is open: remembers what to go back to, and
  /// holds every client's outbox and every new effect.
  func open() {
    guard !committer.isOpen else { return }
    stateBeforeBatch = store.state
    let before = Batch.Before(version: store.version, waits: waits, firstRequestID: store.nextRequestID)
    committer.open(before: before, gate: gate)
    publisher.batchOpened()
    openedAt = MonotonicClock.now()
  }

  /// Opens a batch, if none is open while another is being synced, so that
  /// a frame written now (a `settled`, a heartbeat), which names a
  /// version not yet durable, waits for the sync as the batch's own frames
  /// do. Without a batch in flight a frame goes at once.
  func holdFramesWhileSyncing() {
    if committer.syncing != nil { open() }
  }

  /// Closes the open batch and writes it, unless another is being synced
  /// (it then stays open, and is closed once that sync has finished). It is
  /// let go once durable: at once, unless it is synced beside the loop.
  func commit() {
    guard committer.mayClose else {
      #if DEBUG
        if committer.isOpen { DebugSyncGate.noteSecondBatch() }
      #endif
      return
    }
    // Its root diffs, and its records for the log's followers, go to the
    // outboxes it still holds.
    publisher.batchClosed()
    if let records = committer.batch?.records { history.deliverToFollowers(records) }
    let syncHere = committer.syncsBeside && syncsHereWhenIdle && loopIsIdle()
    let versions = store.version - (committer.batch?.before.version ?? store.version)
    let closedAt = MonotonicClock.now()
    guard let outcome = committer.close(version: store.version, document: { publisher.document }, syncHere: syncHere)
    else { return }
    turnSeconds.observe(MonotonicClock.seconds(from: openedAt, to: closedAt))
    if versions > 0 { batchActions.observe(Double(versions)) }
    switch outcome {
    case .syncing:
      stateBeforeSyncing = stateBeforeBatch
      syncingClosedAt = closedAt
    case .durable(let batch):
      if versions > 0 { commitSeconds.observe(MonotonicClock.seconds(from: closedAt, to: MonotonicClock.now())) }
      letGo(batch)
    case .refused(let batches, let error):
      undo(batches, to: stateBeforeBatch, because: committer.reason(for: error))
    }
  }

  /// Whether the loop syncs a batch itself when it has nothing else to do;
  /// not when a test holds every sync at a gate (debug builds).
  private var syncsHereWhenIdle: Bool {
    #if DEBUG
      DebugSyncGate.path == nil
    #else
      true
    #endif
  }

  /// What a finished sync came to: its batch is let go, or undone with the
  /// open one; then the open one is closed.
  func settle(_ outcome: JournalCommitter.Outcome) {
    switch outcome {
    case .durable(let batch):
      stateBeforeSyncing = stateBeforeBatch
      commitSeconds.observe(MonotonicClock.seconds(from: syncingClosedAt, to: MonotonicClock.now()))
      letGo(batch)
    case .refused(let batches, let error):
      undo(batches, to: stateBeforeSyncing, because: committer.reason(for: error))
    case .syncing:
      break
    }
    commit()
  }

  /// Returns once everything reduced is durable (or undone): before a
  /// request that reads the state, and before commands that do not reduce.
  func makeDurable() {
    if let outcome = committer.waitForSync() { settle(outcome) }
    commit()
    if let outcome = committer.waitForSync() { settle(outcome) }
  }

  /// The state is now `state`, reached other than by reducing (a standby
  /// that takes over): a refused batch goes back to it.
  func restart(at state: App.Root.State) {
    store.restore(state: state, version: publisher.version, forgettingRequestsFrom: store.nextRequestID)
    stateEncoder.stateWasReplaced()
    stateBeforeBatch = state
    stateBeforeSyncing = state
  }

  /// The batch is durable: its effects start, its frames are written (its
  /// records to the log's followers among them), and a snapshot is written
  /// if one is due.
  private func letGo(_ batch: Batch) {
    batch.startEffects(on: workers)
    batch.releaseOutboxes()
    if !committer.isOpen { publisher.batchesDurable() }
    if let end = batch.end, let document = end.document, end.version > batch.before.version {
      committer.snapshotIfDue(version: end.version, document: document)
    }
  }

  /// Undoes refused batches, oldest first, going back to `state` (the one
  /// before the first) and telling their senders.
  private func undo(_ batches: [Batch], to state: App.Root.State, because reason: String) {
    let before = batches[0].before
    if let replica = committer.replica, !committer.replicates || committer.writesRefused != nil {
      // A standby's journal must hold the log, and a leader that can write
      // nothing more must let a standby lead.
      replica.stepDown("the journal refused versions from \(before.version + 1) on: \(reason)")
    }
    store.restore(state: state, version: before.version, forgettingRequestsFrom: before.firstRequestID)
    stateEncoder.stateWasReplaced()
    // The document before the batches is the encoding of the state they
    // go back to (it is not kept: a batch that held it would make the next
    // update copy what it changes of it).
    let document: JSONValue
    do {
      document = try CanonicalJSON.value(of: state)
    } catch {
      // Unreachable: the same state encoded when it was published.
      Log.error("version \(before.version): the state did not encode as JSON: \(error); subscribers will resync")
      document = .null
    }
    publisher.undoBatch(document: document, version: before.version)
    history.forgetRecords(after: before.version)
    waits = before.waits
    for batch in batches { batch.discardOutboxes(from: batches[0].number) }
    publisher.resyncAfterUndo()
    for answer in batches.lazy.flatMap(\.answers) {
      switch answer {
      case .reply(let connection, let message):
        self.answer(message, to: connection)
      case .acknowledgement(let connection, let requestID, let origin):
        waits.remove(origin)
        let message =
          "the action was not applied, and the state is unchanged at version \(before.version): \(reason)"
        self.answer(.error(id: requestID, code: .journal, message: message), to: connection)
      }
    }
  }
}
