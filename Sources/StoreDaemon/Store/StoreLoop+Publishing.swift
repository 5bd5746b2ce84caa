import ComposableCore
import ActionLanguage
import Features
import JSON
import Wire

/// Publishing: every reduced version becomes a diff for each subscriber, and
/// subscriptions start from a snapshot or resume from the history. Runs on the
/// store loop's thread only.
extension StoreLoop {
  func subscribe(_ client: Client, id: Int, path: String, since: UInt64?, resumable: Bool) {
    let connection = client.connection
    guard client.subscription == nil else {
      send(.error(id: id, code: .alreadySubscribed, message: "this connection is already subscribed; open another for a second subscription"), to: connection)
      return
    }
    let pointer: JSONPointer
    do {
      pointer = try JSONPointer(path)
    } catch {
      send(.error(id: id, code: .invalidPath, message: "'\(path)' is not a JSON Pointer: \(error)"), to: connection)
      return
    }
    let missed = since.flatMap { since in resumable ? history.changes(after: since, upTo: store.version) : nil }
    let value = pointer.value(in: published)
    // A part that names nothing now is refused, unless the subscriber may
    // have seen it at `since`: a missed change removed it (or the missed
    // changes are no longer known). It then reads as null, as it does for a
    // live subscriber whose part went away.
    if value == nil && (since == nil || missed?.contains(where: { replacesView(pointer, $0) }) == false) {
      send(.error(id: id, code: .invalidPath, message: "no state at '\(path)'; \(Self.whatExists(along: pointer, in: published))"), to: connection)
      return
    }
    client.subscription = pointer
    client.lastSent = .now
    // The open batch's diffs so far are in the snapshot, or resumed below.
    client.batchRootOffset = batchRootFrames.count
    if let since, let missed, pointer.isRoot || !missed.contains(where: { replacesView(pointer, $0) }) {
      send(.ack(id: id, version: since), to: connection)
      // A resync (the queue filled up) sends a snapshot of the current
      // version: the older diffs must not follow it.
      for change in missed {
        guard offerDiff(change, to: client, document: nil) else { break }
      }
    } else {
      let snapshot = ServerMessage.snapshot(
        version: store.version, path: path, value: value ?? .null, notice: since == nil ? nil : .compacted)
      send(snapshot, to: connection)
    }
  }

  func publish(version: UInt64, action: AppFeature.Action, state: AppFeature.State) {
    let document: JSONValue
    let actionJSON: JSONValue
    let actionBytes: [UInt8]
    let summary: String
    // A client's action was read (and encoded and described) as it arrived;
    // its text belongs to this version only, the first its send produced.
    let sentText = currentSendText
    currentSendText = nil
    do {
      document = try stateEncoder.document(of: state)
      if let sentText {
        (actionJSON, actionBytes, summary) = sentText
      } else {
        actionJSON = try CanonicalJSON.value(of: action)
        actionBytes = CanonicalJSON.encode(actionJSON)
        summary = ActionPath.describe(actionJSON, schema: schema)
      }
    } catch {
      // Unreachable with Codable state (non-finite numbers encode as strings);
      // should it happen, no subscriber may resume across the missing diff.
      Log.error("version \(version): the state or action did not encode as JSON: \(error); subscribers will resync")
      history.removeAll()
      return
    }
    let patch = JSONPatch.diff(from: published, to: document)
    // Encoded once: the frame root subscribers get, and its size is what the
    // history charges for the change.
    // The action's and the patch's bytes, written once for the frame root
    // subscribers get and the journal record.
    let patchJSON = JSONPatch.json(patch)
    let patchBytes = CanonicalJSON.encode(patchJSON)
    let rootFrame = MessageCodec.diffFrame(version: version, action: actionBytes, summary: summary, patch: patchBytes)
    let change = DiffHistory.Change(
      version: version, action: actionJSON, summary: summary, patch: patch, byteCount: rootFrame.count)
    published = document
    history.append(change)
    record(version: version, action: (actionJSON, actionBytes), patch: (patchJSON, patchBytes))
    if let wait = waits[store.reducingOrigin], wait.changes.count < Self.maximumWaitChanges {
      waits[store.reducingOrigin]!.changes.append(
        .object([
          "version": .int(Int(clamping: version)), "action": .string(change.summary), "patch": JSONPatch.json(change.patch),
        ]))
    }
    if batch != nil {
      batchRootFrames += rootFrame
      if batchRootFrames.count >= Self.rootPieceBytes { offerBatchRootFramesToAll() }
    }
    let now = ContinuousClock.now
    for client in clients.values where client.isSubscribed {
      if !client.watchesRoot {
        offerDiff(change, to: client, document: document, now: now)
      } else if batch == nil {
        offer(rootFrame, to: client, now: now)
      }
    }
  }

  /// Whether `change`, seen from `pointer`, replaces the whole view: such a
  /// change can only be sent with the value the view had after it, which the
  /// history does not keep, so a resume across it gets a snapshot instead.
  func replacesView(_ pointer: JSONPointer, _ change: DiffHistory.Change) -> Bool {
    guard let scoped = JSONPatch.scoped(change.patch, to: pointer, newDocument: published) else { return true }
    return scoped.contains { operation in
      if case .replace(let path, _) = operation, path.isRoot { return true }
      return false
    }
  }

  /// Offers one change to a subscriber, scoped to its path; `document` is the
  /// state after the change (nil when replaying history, where the scoped
  /// patch is computed against what the history holds). Returns `false` if
  /// the subscriber was resynced or dropped instead.
  @discardableResult
  func offerDiff(
    _ change: DiffHistory.Change, to client: Client, document: JSONValue?, now: ContinuousClock.Instant = .now
  ) -> Bool {
    guard let subscription = client.subscription else { return false }
    let patch: [PatchOperation]
    if subscription.isRoot {
      patch = change.patch
    } else {
      // `nil`: the subscribed part no longer exists; it reads as null from now on.
      let scoped =
        JSONPatch.scoped(change.patch, to: subscription, newDocument: document ?? published)
        ?? [.replace(path: .root, value: .null)]
      guard !scoped.isEmpty else { return true }
      patch = scoped
    }
    return offer(diffFrame(change, patch: patch), to: client, now: now)
  }

  func diffFrame(_ change: DiffHistory.Change, patch: [PatchOperation]) -> [UInt8] {
    let patchJSON = JSONPatch.json(patch)
    return MessageCodec.frame(ServerMessage.diff(version: change.version, action: change.action, summary: change.summary, patch: patchJSON))
  }

  /// Offers a frame to a subscriber at `now`, after the open batch's root
  /// diffs it has not been offered yet; resyncs it if its queue is full.
  /// Returns `false` if it was resynced or dropped instead.
  @discardableResult
  func offer(_ frame: [UInt8], to client: Client, now: ContinuousClock.Instant) -> Bool {
    guard offerBatchRootFrames(to: client, now: now) else { return false }
    return enqueue(frame, to: client, now: now)
  }

  /// Offers a root subscriber the open batch's diffs it has not had yet, as
  /// one frame sequence (the very same bytes for every subscriber that had
  /// none of them).
  @discardableResult
  func offerBatchRootFrames(to client: Client, now: ContinuousClock.Instant) -> Bool {
    guard client.watchesRoot, client.batchRootOffset < batchRootFrames.count else { return true }
    let bytes = client.batchRootOffset == 0 ? batchRootFrames : Array(batchRootFrames[client.batchRootOffset...])
    client.batchRootOffset = batchRootFrames.count
    return enqueue(bytes, to: client, now: now)
  }

  /// Offers the open batch's root diffs to every root subscriber and starts
  /// the buffer anew: when the batch is released, and when the buffer has
  /// grown to ``rootPieceBytes`` (so that no piece outgrows a client's queue
  /// by much, and a slow subscriber can still be resynced).
  func offerBatchRootFramesToAll() {
    guard !batchRootFrames.isEmpty else { return }
    let now = ContinuousClock.now
    for client in clients.values where client.watchesRoot {
      offerBatchRootFrames(to: client, now: now)
      client.batchRootOffset = 0
    }
    batchRootFrames = []
  }

  /// The most bytes of root diffs offered as one piece.
  static let rootPieceBytes = 64 * 1024

  private func enqueue(_ frame: [UInt8], to client: Client, now: ContinuousClock.Instant) -> Bool {
    if client.connection.outbox.offer(frame, droppable: true) {
      client.lastSent = now
      return true
    }
    resync(client)
    return false
  }

  /// The subscriber's queue is full: drop the diffs that wait and send a
  /// snapshot of the current state instead (it fits: answers are counted
  /// apart, and the dropped diffs were all else that waited). A subscriber
  /// whose connection has taken nothing for the lag timeout (`--lag-timeout`)
  /// is disconnected instead; one that is merely slow, or reads in bursts,
  /// is resynced as often as needed. A snapshot larger than the buffer
  /// leaves no room for the next change, so such a subscriber is resynced
  /// with almost every change; if it then lags, it is told that this is why.
  func resync(_ client: Client) {
    guard let subscription = client.subscription else { return }
    let connection = client.connection
    connection.outbox.dropDroppable()
    // A part that no longer exists reads as null, as its diffs said.
    let value = subscription.value(in: published) ?? .null
    let snapshot = MessageCodec.frame(
      ServerMessage.snapshot(version: store.version, path: subscription.description, value: value, notice: .resynced))
    let idle = ContinuousClock.now - connection.outbox.lastTakenAt
    guard idle < options.lagTimeout else {
      let seconds = Double(idle.wholeMilliseconds) / 1000
      var reason = "the subscriber has read nothing for \(seconds) s while diffs were waiting"
      if snapshot.count > connection.outbox.limit {
        let part = subscription.isRoot ? "the state" : "'\(subscription)'"
        reason +=
          ", and the snapshot of \(part) that would resync it (\(snapshot.count) bytes) does not fit its buffer "
          + "(--client-buffer \(connection.outbox.limit) bytes), so each change needs another; subscribe to a "
          + "smaller part of the state, or raise --client-buffer"
      }
      reason += "; disconnecting it"
      connection.closeWithNotice(.lagged, reason)
      clients[connection.id] = nil
      Log.warning("connection \(connection.id) (\(client.name)): \(reason)")
      return
    }
    connection.outbox.offer(snapshot, droppable: true)
    client.lastSent = .now
    if batch != nil { resyncedInBatch.insert(connection.id) }
  }

  /// Tells each waiting client whose action's effects have all finished.
  func reportSettledWaits() {
    for (origin, wait) in waits where store.isSettled(origin: origin) {
      waits[origin] = nil
      guard let client = clients[wait.connectionID] else { continue }
      send(.settled(id: wait.requestID, version: store.version, changes: .array(wait.changes)), to: client.connection)
    }
  }

  /// Offers a heartbeat to each subscriber that was sent nothing for the
  /// heartbeat interval. It looks only when the earliest subscriber can be
  /// due (what is sent meanwhile only makes them due later), not on every
  /// pass of a busy loop, where looking at 100 subscribers cost more than the
  /// action itself.
  func sendHeartbeats() {
    let now = ContinuousClock.now
    guard now >= nextHeartbeatCheck else { return }
    var frame: [UInt8]?
    var next = now + options.heartbeatInterval
    for client in clients.values where client.isSubscribed {
      if now - client.lastSent >= options.heartbeatInterval {
        if frame == nil { frame = MessageCodec.frame(ServerMessage.heartbeat(version: store.version)) }
        offer(frame!, to: client, now: now)
      }
      next = min(next, client.lastSent + options.heartbeatInterval)
    }
    nextHeartbeatCheck = next
  }

}
