import ActionLanguage
import ComposableCore
import JSON
import Wire

/// The fan-out: holds the published state document and the recent diffs,
/// turns every reduced version into a diff for each subscriber, and starts
/// subscriptions from a snapshot or resumes them from the history. A slow
/// subscriber is resynchronised or disconnected, never waited for.
/// Confined to the store loop's thread.
///
/// The diffs root subscribers get are framed once per version and, while a
/// batch is open, gathered: each root subscriber is offered them as one piece
/// when the batch is released (or before any other frame it is offered
/// meanwhile), not one queue append per subscriber and version.
final class Publisher {
  /// What the publication of one version gives the journal and the waits.
  struct Publication {
    let change: DiffHistory.Change
    /// The action's canonical bytes, the same the diff frame holds.
    let actionBytes: [UInt8]
    /// The patch's canonical bytes, the same the diff frame holds.
    let patchBytes: [UInt8]
  }

  /// A client that subscribed: the part of the state it watches, and what
  /// it has been offered.
  private final class Subscriber {
    let client: ConnectedClient
    let pointer: JSONPointer
    /// Whether it watches the whole state: read for every subscriber and
    /// every version, so kept as a plain flag.
    let watchesRoot: Bool
    /// When a diff, snapshot or heartbeat was last offered to it.
    var lastSent = ContinuousClock.now
    /// How many bytes of the open batch's root diffs a root subscriber was
    /// offered (or, subscribed during the batch, came after).
    var batchRootOffset = 0

    var connection: Connection { client.connection }

    init(client: ConnectedClient, pointer: JSONPointer) {
      self.client = client
      self.pointer = pointer
      self.watchesRoot = pointer.isRoot
    }
  }

  /// The most bytes of root diffs offered as one piece.
  static let rootPieceBytes = 64 * 1024

  /// The state as clients see it, at ``version``.
  private(set) var document: JSONValue
  /// The last version published.
  private(set) var version: UInt64
  private(set) var history: DiffHistory
  private let clients: ClientRegistry
  /// The subscribed clients, by connection id.
  private var subscribers: [Int: Subscriber] = [:] {
    didSet { hasRootSubscribers = subscribers.values.contains { $0.watchesRoot } }
  }
  /// Whether any subscriber watches the whole state: without one, no root
  /// diff frame is written.
  private var hasRootSubscribers = false
  private let schema: ActionSchema
  private let lagTimeout: Duration
  private let heartbeatInterval: Duration
  /// Whether a batch is open: root diffs are gathered in `batchRootFrames`.
  private var isBatchOpen = false
  /// Whether a batch is open or closed but not yet durable: the frames
  /// offered meanwhile are held, and may yet be thrown away.
  private var isBatchInFlight = false
  /// The diff frames of the open batch's versions as root subscribers get
  /// them, one after another.
  private var batchRootFrames: [UInt8] = []
  /// The canonical bytes of the last version's patch, rewritten for each.
  private var patchBytes: [UInt8] = []
  /// The connections resynced while a batch was in flight: their queued
  /// diffs from before it are gone, so if the batch is refused (and their
  /// snapshot with it) they are resynced again.
  private var resyncedInBatch: Set<Int> = []
  /// When ``sendHeartbeats()`` next looks for idle subscribers.
  private var nextHeartbeatCheck = ContinuousClock.now

  init(
    document: JSONValue, version: UInt64, history: DiffHistory, clients: ClientRegistry, schema: ActionSchema,
    options: DaemonOptions, catchesUp: Bool = false
  ) {
    self.catchesUp = catchesUp
    self.document = document
    self.version = version
    self.history = history
    self.clients = clients
    self.schema = schema
    self.lagTimeout = options.lagTimeout
    self.heartbeatInterval = options.heartbeatInterval
  }

  // MARK: Versions

  /// Publishes the state `version` reached by an action: the diff from the
  /// last one goes to the history and every subscriber. `sent` is how the
  /// client wrote the action, read as it arrived; an action an effect sent
  /// is encoded by `action` and described here. `update` brings the
  /// document up to the state, in place, and gives the patch. `published`
  /// is given what the journal and the waits need of the version; it is
  /// lent, so that the publisher lets go of its parts itself. Returns
  /// false if the state or action did not encode (then no subscriber may
  /// resume across the version).
  @discardableResult
  func publish(
    version: UInt64, sent: ActionReading?, action encodeAction: () throws -> JSONValue,
    update: (inout JSONValue) throws -> [PatchOperation], published: (borrowing Publication) -> Void = { _ in }
  ) -> Bool {
    self.version = version
    let patch: [PatchOperation]
    let actionJSON: JSONValue
    let actionBytes: [UInt8]
    let summary: String
    let summaryJSON: [UInt8]
    do {
      if let sent {
        (actionJSON, actionBytes, summary, summaryJSON) = (sent.json, sent.canonical, sent.summary, sent.summaryJSON)
      } else {
        actionJSON = try encodeAction()
        actionBytes = CanonicalJSON.encode(actionJSON)
        summary = ActionPath.describe(actionJSON, schema: schema)
        summaryJSON = CanonicalJSON.encode(.string(summary))
      }
      // The state last: once encoded, the encoder counts it as published,
      // and the next update's changes are counted from it.
      patch = try update(&document)
    } catch {
      // Unreachable with Codable state (non-finite numbers encode as strings);
      // should it happen, no subscriber may resume across the missing diff.
      Log.error("version \(version): the state or action did not encode as JSON: \(error); subscribers will resync")
      history.removeAll()
      return false
    }
    // The action's and the patch's bytes, written once for the frame root
    // subscribers get, if there are any, and the journal record; the
    // frame's size is what the history charges for the change.
    // Written into the publisher's own array, lent to `published`: the
    // journal copies it into its record, so the next version writes over
    // it (unless something kept it, which then has its own copy).
    JSONPatch.canonicalBytes(patch, into: &patchBytes)
    let rootFrame =
      hasRootSubscribers
      ? MessageCodec.diffFrame(version: version, action: actionBytes, summary: summaryJSON, patch: patchBytes) : nil
    let byteCount =
      rootFrame?.count
      ?? MessageCodec.diffFrameCount(version: version, action: actionBytes, summary: summaryJSON, patch: patchBytes)
    let change = DiffHistory.Change(
      version: version, action: actionJSON, summary: summary, patch: patch, byteCount: byteCount)
    history.append(change)
    if isBatchOpen, let rootFrame {
      batchRootFrames += rootFrame
      if batchRootFrames.count >= Self.rootPieceBytes { offerBatchRootFramesToAll() }
    }
    if !subscribers.isEmpty {
      let now = ContinuousClock.now
      for subscriber in subscribers.values {
        if !subscriber.watchesRoot {
          offerDiff(change, to: subscriber, document: document, now: now)
        } else if !isBatchOpen, let rootFrame {
          offer(rootFrame, to: subscriber, now: now)
        }
      }
    }
    published(Publication(change: change, actionBytes: actionBytes, patchBytes: patchBytes))
    return true
  }

  // MARK: Batches

  /// A batch opened: root diffs are gathered until it is closed.
  func batchOpened() {
    isBatchOpen = true
    isBatchInFlight = true
  }

  /// The batch is closed: offers its root diffs to every root subscriber
  /// (into outboxes the batch still holds).
  func batchClosed() {
    isBatchOpen = false
    offerBatchRootFramesToAll()
  }

  /// Every batch reduced is durable: nothing offered so far can be taken
  /// back.
  func batchesDurable() {
    isBatchInFlight = false
    resyncedInBatch.removeAll()
    if !awaiting.isEmpty { resumeAwaiting(now: .now) }
  }

  /// Resumes the subscriptions waiting for a version this daemon has now
  /// reached (durably: no batch is in flight), and refuses those that have
  /// waited past ``resumeWait``.
  private func resumeAwaiting(now: ContinuousClock.Instant) {
    for (connectionID, waiting) in awaiting.sorted(by: { $0.key < $1.key }) {
      if waiting.since <= version && !isBatchInFlight {
        awaiting[connectionID] = nil
        subscribe(waiting.client, id: waiting.id, path: waiting.path, since: waiting.since, resumable: true)
      } else if now >= waiting.deadline {
        awaiting[connectionID] = nil
        let message =
          "this daemon has not reached version \(waiting.since) within \(resumeWait) (it is at \(version)); "
          + "resume at another of the store's daemons, or subscribe without 'since'"
        answer(.error(id: waiting.id, code: .versionUnavailable, message: message), to: waiting.client.connection)
      }
    }
  }

  /// Batches were refused: puts the document and the history back as they
  /// were at `version`, and forgets the batch's root diffs (the held outboxes
  /// that had them are discarded). Then ``resyncAfterUndo()``.
  func undoBatch(document: JSONValue, version: UInt64) {
    isBatchOpen = false
    isBatchInFlight = false
    self.document = document
    self.version = version
    history.removeChanges(after: version)
    for subscriber in subscribers.values where subscriber.watchesRoot { subscriber.batchRootOffset = 0 }
    batchRootFrames = []
  }

  /// A subscriber resynced during a refused batch lost its older queued
  /// diffs and now its snapshot too: it gets one of the state as it is again.
  func resyncAfterUndo() {
    let resynced = resyncedInBatch
    resyncedInBatch.removeAll()
    for id in resynced.sorted() {
      if let subscriber = subscribers[id] { resync(subscriber) }
    }
  }

  // MARK: Answers

  /// Queues the frame of an answer, after the open batch's root diffs the
  /// client has not been offered yet (so nothing is reordered). Answers are
  /// never dropped, nor a reason to drop a client.
  func answer(_ frame: [UInt8], to connection: Connection) {
    if !batchRootFrames.isEmpty, let subscriber = subscribers[connection.id] {
      offerBatchRootFrames(to: subscriber, now: .now)
    }
    connection.outbox.offerAnswer(frame)
  }

  func answer(_ message: ServerMessage, to connection: Connection) {
    guard case .ack(let id, let version) = message else {
      switch message {
      case .error(_, let code, _): refusals.count(code)
      case .notLeader: refusals.count(.notLeader)
      default: break
      }
      return answer(MessageCodec.frame(message), to: connection)
    }
    // An acknowledgement is gathered with the others the connection waits
    // for, with no frame of its own.
    if !batchRootFrames.isEmpty, let subscriber = subscribers[connection.id] {
      offerBatchRootFrames(to: subscriber, now: .now)
    }
    connection.outbox.offerAnswer(count: MessageCodec.ackFrameCount(id: id, version: version)) {
      MessageCodec.writeAckFrame(id: id, version: version, to: &$0)
    }
  }

  // MARK: Subscriptions

  /// Whether the client of connection `id` subscribed.
  func isSubscribed(_ id: Int) -> Bool {
    subscribers[id] != nil
  }

  var subscriberCount: Int { subscribers.count }

  /// A subscription resuming from a version this daemon has not reached.
  private struct AwaitingResume {
    let client: ConnectedClient
    let id: Int
    let path: String
    let since: UInt64
    let deadline: ContinuousClock.Instant
  }

  /// The subscriptions waiting until this daemon reaches the version they
  /// resume from, by connection.
  private var awaiting: [Int: AwaitingResume] = [:]
  /// Whether this daemon may reach versions it has not: it follows a
  /// replicated log, so a client may come from a daemon ahead of it. Then a
  /// subscription resuming from such a version waits for it (up to
  /// ``resumeWait``); otherwise it is refused.
  let catchesUp: Bool
  /// How long such a subscription waits.
  var resumeWait: Duration = .seconds(60)

  /// The requests answered with an error, by its code, for the metrics.
  private(set) var refusals = RefusalCounts()
  /// How many times a subscriber was sent a snapshot instead of the diffs
  /// it could not keep up with.
  private(set) var resyncs = 0
  /// How many subscribers were disconnected for reading nothing while they
  /// had to be resynced (`--lag-timeout`).
  private(set) var laggedDisconnects = 0

  /// Forgets the subscription of a client that was let go.
  func forget(_ id: Int) {
    if !subscribers.isEmpty { subscribers[id] = nil }
    if !awaiting.isEmpty { awaiting[id] = nil }
    resyncedInBatch.remove(id)
  }

  func subscribe(_ client: ConnectedClient, id: Int, path: String, since: UInt64?, resumable: Bool) {
    let connection = client.connection
    guard subscribers[connection.id] == nil, awaiting[connection.id] == nil else {
      answer(
        .error(
          id: id, code: .alreadySubscribed,
          message: "this connection is already subscribed; open another for a second subscription"), to: connection)
      return
    }
    let pointer: JSONPointer
    do {
      pointer = try JSONPointer(path)
    } catch {
      answer(.error(id: id, code: .invalidPath, message: "'\(path)' is not a JSON Pointer: \(error)"), to: connection)
      return
    }
    if let since, resumable, since > version, catchesUp {
      // The client saw versions this daemon has not reached yet: it is
      // answered once it has (its part may not exist before).
      awaiting[connection.id] = AwaitingResume(
        client: client, id: id, path: path, since: since, deadline: .now + resumeWait)
      return
    }
    let missed = since.flatMap { since in resumable ? history.changes(after: since, upTo: version) : nil }
    let value = pointer.value(in: document)
    // A part that names nothing now is refused, unless one of the missed
    // changes, all still held, may have removed it: then it reads as null,
    // as it does for a live subscriber whose part went away. Without the
    // missed changes nothing shows that the part ever existed, so a
    // mistyped path is refused however old the version resumed from.
    if value == nil && missed?.contains(where: { JSONPatch.mayRemove($0.patch, at: pointer) }) != true {
      answer(
        .error(
          id: id, code: .invalidPath, message: "no state at '\(path)'; \(Self.whatExists(along: pointer, in: document))"
        ), to: connection)
      return
    }
    if let since, resumable, since > version {
      // The client saw versions this daemon has not reached, and does not
      // hold: a snapshot now would take it back in time.
      let message =
        "version \(since) is after this daemon's version \(version): its journal does not hold it (it lost "
        + "writes not yet synced, or its state directory was restored from an older copy); subscribe without "
        + "'since' to start from its state"
      answer(.error(id: id, code: .versionUnavailable, message: message), to: connection)
      return
    }
    let subscriber = Subscriber(client: client, pointer: pointer)
    subscribers[connection.id] = subscriber
    // The open batch's diffs so far are in the snapshot, or resumed below.
    subscriber.batchRootOffset = batchRootFrames.count
    if let since, let missed, value != nil, pointer.isRoot || !missed.contains(where: { replacesView(pointer, $0) }) {
      answer(.ack(id: id, version: since), to: connection)
      // A resync (the queue filled up) sends a snapshot of the current
      // version: the older diffs must not follow it.
      for change in missed {
        guard offerDiff(change, to: subscriber, document: nil) else { break }
      }
    } else {
      let snapshot = ServerMessage.snapshot(
        version: version, path: path, value: value ?? .null, notice: since == nil ? nil : .compacted)
      answer(snapshot, to: connection)
    }
  }

  /// The published state at `path`, a JSON Pointer.
  func value(at path: String) -> Result<JSONValue, MessageError> {
    let pointer: JSONPointer
    do {
      pointer = try JSONPointer(path)
    } catch {
      return .failure(MessageError(.invalidPath, "'\(path)' is not a JSON Pointer: \(error)"))
    }
    guard let value = pointer.value(in: document) else {
      return .failure(
        MessageError(.invalidPath, "no state at '\(path)'; \(Self.whatExists(along: pointer, in: document))"))
    }
    return .success(value)
  }

  /// Describes the deepest part of `document` that `pointer` reaches, for an
  /// error message: its keys, or its length.
  static func whatExists(along pointer: JSONPointer, in document: JSONValue) -> String {
    var found = JSONPointer.root
    for token in pointer.tokens {
      let next = found.appending(token)
      guard next.value(in: document) != nil else { break }
      found = next
    }
    let place = found.isRoot ? "the state" : "'\(found)'"
    switch found.value(in: document) {
    case .object(let members)?:
      return "\(place) has: \(members.keys.sorted().joined(separator: ", "))"
    case .array(let elements)?:
      return "\(place) is a list of \(elements.count) element(s), indexed from 0"
    case let value?:
      return "\(place) is the value \(CanonicalJSON.text(value)), which has no parts"
    case nil:
      return "the state is empty"
    }
  }

  /// Whether `change`, seen from `pointer`, replaces the whole view: such a
  /// change can only be sent with the value the view had after it, which the
  /// history does not keep, so a resume across it gets a snapshot instead.
  private func replacesView(_ pointer: JSONPointer, _ change: DiffHistory.Change) -> Bool {
    guard let scoped = JSONPatch.scoped(change.patch, to: pointer, newDocument: document) else { return true }
    return scoped.contains { operation in
      if case .replace(let path, _) = operation, path.isRoot { return true }
      return false
    }
  }

  // MARK: Offering

  /// Offers one change to a subscriber, scoped to its path; `document` is the
  /// state after the change (nil when replaying history, where the scoped
  /// patch is computed against what the history holds). Returns `false` if
  /// the subscriber was resynced or dropped instead.
  @discardableResult
  private func offerDiff(
    _ change: DiffHistory.Change, to subscriber: Subscriber, document: JSONValue?, now: ContinuousClock.Instant = .now
  ) -> Bool {
    let subscription = subscriber.pointer
    let patch: [PatchOperation]
    if subscriber.watchesRoot {
      patch = change.patch
    } else {
      // `nil`: the subscribed part no longer exists; it reads as null from now on.
      let scoped =
        JSONPatch.scoped(change.patch, to: subscription, newDocument: document ?? self.document)
        ?? [.replace(path: .root, value: .null)]
      guard !scoped.isEmpty else { return true }
      patch = scoped
    }
    return offer(diffFrame(change, patch: patch), to: subscriber, now: now)
  }

  private func diffFrame(_ change: DiffHistory.Change, patch: [PatchOperation]) -> [UInt8] {
    let patchJSON = JSONPatch.json(patch)
    return MessageCodec.frame(
      ServerMessage.diff(version: change.version, action: change.action, summary: change.summary, patch: patchJSON))
  }

  /// Offers a frame to a subscriber at `now`, after the open batch's root
  /// diffs it has not been offered yet; resyncs it if its queue is full.
  /// Returns `false` if it was resynced or dropped instead.
  @discardableResult
  private func offer(_ frame: [UInt8], to subscriber: Subscriber, now: ContinuousClock.Instant) -> Bool {
    guard offerBatchRootFrames(to: subscriber, now: now) else { return false }
    return enqueue(frame, to: subscriber, now: now)
  }

  /// Offers a root subscriber the open batch's diffs it has not had yet, as
  /// one frame sequence (the very same bytes for every subscriber that had
  /// none of them).
  @discardableResult
  private func offerBatchRootFrames(to subscriber: Subscriber, now: ContinuousClock.Instant) -> Bool {
    guard subscriber.watchesRoot, subscriber.batchRootOffset < batchRootFrames.count else { return true }
    let offset = subscriber.batchRootOffset
    let bytes = offset == 0 ? batchRootFrames : Array(batchRootFrames[offset...])
    subscriber.batchRootOffset = batchRootFrames.count
    return enqueue(bytes, to: subscriber, now: now)
  }

  /// Offers the open batch's root diffs to every root subscriber and starts
  /// the buffer anew: when the batch is released, and when the buffer has
  /// grown to ``rootPieceBytes`` (so that no piece outgrows a client's queue
  /// by much, and a slow subscriber can still be resynced).
  private func offerBatchRootFramesToAll() {
    guard !batchRootFrames.isEmpty else { return }
    let now = ContinuousClock.now
    for subscriber in subscribers.values where subscriber.watchesRoot {
      offerBatchRootFrames(to: subscriber, now: now)
      subscriber.batchRootOffset = 0
    }
    batchRootFrames = []
  }

  private func enqueue(_ frame: [UInt8], to subscriber: Subscriber, now: ContinuousClock.Instant) -> Bool {
    if subscriber.connection.outbox.offer(frame, droppable: true) {
      subscriber.lastSent = now
      return true
    }
    resync(subscriber)
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
  private func resync(_ subscriber: Subscriber) {
    let subscription = subscriber.pointer
    let connection = subscriber.connection
    connection.outbox.dropDroppable()
    // A part that no longer exists reads as null, as its diffs said.
    let value = subscription.value(in: document) ?? .null
    let snapshot = MessageCodec.frame(
      ServerMessage.snapshot(version: version, path: subscription.description, value: value, notice: .resynced))
    let idle = ContinuousClock.now - connection.outbox.lastTakenAt
    guard idle < lagTimeout else {
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
      laggedDisconnects += 1
      connection.closeWithNotice(.lagged, reason)
      subscribers[connection.id] = nil
      clients.remove(connection.id)
      Log.write(
        .warning, "connection \(connection.id) (\(subscriber.client.name)): \(reason)",
        fields: [
          ("CLIENT", subscriber.client.name), ("CONNECTION", String(connection.id)), ("VERSION", String(version)),
        ])
      return
    }
    connection.outbox.offer(snapshot, droppable: true)
    resyncs += 1
    subscriber.lastSent = .now
    if isBatchInFlight { resyncedInBatch.insert(connection.id) }
  }

  // MARK: Heartbeats

  /// Whether ``sendHeartbeats()`` would look for idle subscribers now.
  var heartbeatsAreDue: Bool { !awaiting.isEmpty || ContinuousClock.now >= nextHeartbeatCheck }

  /// Offers a heartbeat to each subscriber that was sent nothing for the
  /// heartbeat interval. It looks only when the earliest subscriber can be
  /// due (what is sent meanwhile only makes them due later), not on every
  /// pass of a busy loop, where looking at 100 subscribers cost more than the
  /// action itself.
  func sendHeartbeats() {
    let now = ContinuousClock.now
    if !awaiting.isEmpty { resumeAwaiting(now: now) }
    guard now >= nextHeartbeatCheck else { return }
    var frame: [UInt8]?
    var next = now + heartbeatInterval
    for subscriber in subscribers.values {
      if now - subscriber.lastSent >= heartbeatInterval {
        let heartbeat = frame ?? MessageCodec.frame(ServerMessage.heartbeat(version: version))
        frame = heartbeat
        offer(heartbeat, to: subscriber, now: now)
      }
      next = min(next, subscriber.lastSent + heartbeatInterval)
    }
    nextHeartbeatCheck = next
  }
}
