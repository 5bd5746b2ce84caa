import ComposableCore
import ActionLanguage
import Features
import Journal
import JSON
import Platform
import Wire

/// Durability: the actions reduced from one batch of commands are appended to
/// the journal together, with one sync under the default policy (group
/// commit), before any client hears of them; a batch the journal refuses is
/// undone. Runs on the store loop's thread only (docs/DURABILITY.md).
extension StoreLoop {
  /// The actions reduced since the last commit, and what undoing them takes.
  ///
  /// A class: the loop asks whether a batch is open twice per publication
  /// and takes it out to commit it, and with a struct each of these copied
  /// the `Batch?`, the state before it included, and destroyed the copy; a
  /// reference is one retain (docs/BENCHMARKS.md).
  final class Batch {
    let stateBefore: AppFeature.State
    let versionBefore: UInt64
    let publishedBefore: JSONValue
    let waitsBefore: [Origin: Wait]
    /// Requests from this id on were started by the batch's actions.
    let firstRequestID: EffectID
    /// The outboxes held for the batch, including those of clients that go
    /// away before it ends (their last words wait for the commit too).
    let held: [Connection]
    var records: [JournalRecord] = []
    /// What the batch answered, in order, acknowledgements and other
    /// answers alike: the frames are held, so if the batch is refused they
    /// are thrown away and given again, each client's in the order of its
    /// requests (an acknowledgement becomes a `journal` error).
    var answers: [Answer] = []

    enum Answer {
      case reply(Connection, ServerMessage)
      case acknowledgement(Connection, requestID: Int, origin: Origin)
    }

    init(
      stateBefore: AppFeature.State, versionBefore: UInt64, publishedBefore: JSONValue, waitsBefore: [Origin: Wait],
      firstRequestID: EffectID, held: [Connection]
    ) {
      self.stateBefore = stateBefore
      self.versionBefore = versionBefore
      self.publishedBefore = publishedBefore
      self.waitsBefore = waitsBefore
      self.firstRequestID = firstRequestID
      self.held = held
    }
  }

  /// Starts a batch unless one is open: remembers the state to go back to,
  /// and holds every client's outbox and every new effect.
  func openBatchIfNeeded() {
    guard batch == nil else { return }
    let held = clients.values.map(\.connection)
    batch = Batch(
      stateBefore: store.state, versionBefore: store.version, publishedBefore: published, waitsBefore: waits,
      firstRequestID: store.nextRequestID, held: held)
    for connection in held { connection.outbox.hold() }
    supervisor.holdStarts()
  }

  /// The journal record of a reduced action: the action's JSON and its
  /// canonical bytes, and the same of its patch (``JSONPatch/json(_:)``).
  func record(version: UInt64, action: (json: JSONValue, bytes: [UInt8]), patch: (json: JSONValue, bytes: [UInt8])) {
    let origin = store.reducingOrigin
    let sender: JSONValue
    if let currentSend, currentSend.origin == origin {
      // The client's own action is the first reduced; what follows in the
      // same drain was sent by its effects.
      sender = currentSend.sender
      self.currentSend = nil
    } else {
      sender = .object(["effect": .bool(true), "origin": .int(Int(clamping: origin))])
    }
    batch?.records.append(
      JournalRecord(
        version: version, time: JournalClock.milliseconds(), origin: sender, action: action.json, patch: patch.json,
        canonical: (action.bytes, patch.bytes)))
  }

  /// Makes the open batch durable and lets its frames and effects go; or, if
  /// the journal refuses it, undoes it and tells its senders.
  func commitBatch() {
    guard let batch else { return }
    self.batch = nil
    guard !batch.records.isEmpty else {
      release(batch)
      return
    }
    do throws(JournalWriteError) {
      _ = try writer.append(batch.records)
    } catch {
      reject(batch, because: error)
      return
    }
    deliverToFollowers(batch.records)
    release(batch)
    snapshotIfDue()
  }

  private func release(_ batch: Batch) {
    // Effects first: a request written before the clients' frames is under
    // way in its worker while the loop writes to every client; the reply is
    // read by this thread only after the frames are out, so nothing
    // overtakes them.
    supervisor.releaseHeldStarts()
    offerBatchRootFramesToAll()
    resyncedInBatch.removeAll()
    for connection in batch.held { connection.outbox.release() }
  }

  private func reject(_ batch: Batch, because error: JournalWriteError) {
    let versions = "\(batch.versionBefore + 1)…\(store.version)"
    var reason = "the journal could not record it: \(error)"
    if !error.writerStillUsable {
      writesRefused =
        "writes are refused since the journal failed (\(error)); the state stays readable at version "
        + "\(batch.versionBefore), and restarting storedaemon recovers from the journal"
      reason = writesRefused!
      Log.error("journal: \(error); refusing every write from now on (versions \(versions) were undone)")
    } else {
      Log.error("journal: \(error); versions \(versions) were undone and their senders told")
    }
    store.restore(state: batch.stateBefore, version: batch.versionBefore, forgettingRequestsFrom: batch.firstRequestID)
    supervisor.forgetRequests(from: batch.firstRequestID)
    published = batch.publishedBefore
    history.removeChanges(after: batch.versionBefore)
    waits = batch.waitsBefore
    for client in clients.values where client.watchesRoot { client.batchRootOffset = 0 }
    batchRootFrames = []
    for connection in batch.held {
      connection.outbox.discardHeld()
      connection.outbox.release()
    }
    // A subscriber resynced during the batch lost its older queued diffs and
    // now its snapshot too: it gets one of the state as it is again.
    let resynced = resyncedInBatch
    resyncedInBatch.removeAll()
    for id in resynced.sorted() {
      if let client = clients[id] { resync(client) }
    }
    for answer in batch.answers {
      switch answer {
      case .reply(let connection, let message):
        send(message, to: connection)
      case .acknowledgement(let connection, let requestID, let origin):
        waits[origin] = nil
        let message =
          "the action was not applied, and the state is unchanged at version \(batch.versionBefore): \(reason)"
        send(.error(id: requestID, code: .journal, message: message), to: connection)
      }
    }
  }

  private func snapshotIfDue() {
    guard snapshotPolicy.shouldSnapshot(writer.progress) else { return }
    do {
      let result = try journal.writeSnapshot(version: store.version, state: published, epoch: epoch)
      Log.info("wrote a snapshot at version \(store.version) (\(result.bytes) bytes); older journal segments were dropped")
    } catch {
      Log.warning("could not write a snapshot at version \(store.version): \(error); the journal keeps growing until one succeeds")
    }
  }

  /// After a crash, the features that were waiting on an effect (a roll, a
  /// fetch, an order) are told that it is gone: `AppFeature.Action.recovered`
  /// is reduced once, recorded as sent by the recovery. After a clean stop
  /// nothing waits (stopping failed every effect in flight), and nothing is
  /// reduced.
  func reduceRecoveryActionIfNeeded() {
    let waiting = AppFeature.recoveryActions(for: store.state)
    guard !waiting.isEmpty else { return }
    openBatchIfNeeded()
    let origin = nextOrigin
    nextOrigin += 1
    currentSend = (origin, .object(["recovery": .bool(true), "origin": .int(Int(origin))]))
    defer { currentSend = nil }
    let version = store.send(.recovered, origin: origin)
    commitBatch()
    let names = waiting.map { ActionPath.describe((try? CanonicalJSON.value(of: $0)) ?? .null, schema: schema) }
    Log.warning(
      "effects were in flight when storedaemon stopped; told their features at version \(version): "
        + names.joined(separator: ", "))
  }

  /// The journal as `tcactl status` shows it.
  var journalStatus: JSONValue {
    let progress = writer.progress
    var object: JSONObject = [
      "fsync": .string(options.syncPolicy.rawValue),
      "durableVersion": .int(Int(clamping: progress.durableVersion)),
      "bytesSinceSnapshot": .int(progress.bytesSinceSnapshot),
    ]
    if let snapshot = progress.snapshotVersion { object["snapshotVersion"] = .int(Int(clamping: snapshot)) }
    if let writesRefused { object["writesRefused"] = .string(writesRefused) }
    return .object(object)
  }
}
