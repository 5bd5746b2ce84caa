import ComposableCore
import Dispatch
import Features
import Foundation
import Synchronization
import Wire

/// The daemon's single owner of the state: every action, from every client and
/// every effect, is reduced here, one at a time, in arrival order.
///
/// Other threads only ``post(_:)`` commands; the loop's own thread runs
/// ``run()`` and is the only one that touches the store, the subscribers and
/// the published state. It never blocks on a client: answers go to each
/// connection's bounded ``Outbox``, and a subscriber that cannot keep up is
/// resynchronised or disconnected.
final class StoreLoop: @unchecked Sendable {
  // Safe: `inbox` is thread-safe (a Mutex and a semaphore); every other stored
  // property is read and written only by the thread running `run()`.

  enum Command: Sendable {
    case connected(Connection, client: String)
    case disconnected(connectionID: Int)
    case message(connectionID: Int, ClientMessage)
    /// A frame from a greeted client that is not a valid message.
    case invalid(connectionID: Int, requestID: Int?, MessageError)
    case effectReply(EffectReply, EffectID)
    case shutdown(done: @Sendable () -> Void)
  }

  private let inbox = Inbox<Command>()
  private let options: DaemonOptions
  private let startedAt = ContinuousClock.now
  /// Names this run's lineage of versions: they restart with the daemon, so a
  /// version is only meaningful within its epoch.
  private let epoch = String(UInt64.random(in: 1...UInt64.max), radix: 16)

  private var store: Store<AppFeature>!
  private var published: JSONValue = .null
  private var history: DiffHistory
  private var clients: [Int: Client] = [:]
  private let schema = AppFeature.Action.actionSchema
  private var nextOrigin: Origin = 1
  /// Sends with `wait` whose effects are still running, by origin.
  private var waits: [Origin: Wait] = [:]

  /// The most changes a `settled` answer lists; an action whose effects keep
  /// changing the state (a repeating timer) would otherwise grow it forever.
  static let maximumWaitChanges = 1000

  private struct Wait {
    let connectionID: Int
    let requestID: Int
    var changes: [JSONValue] = []
  }
  /// Every action path with its arguments, for `actions`; computed once.
  private lazy var actionListing: JSONValue = (try? CanonicalJSON.value(of: schema.allPaths)) ?? .array([])
  private var isRunning = true

  private final class Client {
    let connection: Connection
    let name: String
    var subscription: Subscription?
    init(connection: Connection, name: String) {
      self.connection = connection
      self.name = name
    }
  }

  private struct Subscription {
    let pointer: JSONPointer
    var lastSent: ContinuousClock.Instant
    /// Resyncs in a row during which the client read nothing.
    var stalledResyncs = 0
    /// ``Outbox/framesTaken`` at the last resync.
    var takenAtLastResync = -1
  }

  init(options: DaemonOptions, dependencies: DependencyValues) throws {
    self.options = options
    self.history = DiffHistory(capacity: options.retainedDiffs)
    let executor = InterimExecutor { [inbox] reply, id in
      inbox.post(.effectReply(reply, id))
    }
    store = Store(initialState: AppFeature.State(), reducer: AppFeature(), executor: executor, dependencies: dependencies)
    published = try CanonicalJSON.value(of: store.state)
    store.didReduce = { [unowned self] version, action, state in
      publish(version: version, action: action, state: state)
    }
  }

  /// Queues a command for the loop.
  func post(_ command: Command) {
    inbox.post(command)
  }

  /// Runs the loop until a shutdown command; call on the loop's own thread.
  func run() {
    let tick = DispatchTimeInterval.milliseconds(max(50, options.heartbeatInterval.wholeMilliseconds / 2))
    while isRunning {
      let commands = inbox.take(waitingUntil: .now() + tick)
      for command in commands where isRunning {
        handle(command)
        reportSettledWaits()
      }
      sendHeartbeats()
    }
  }

  // MARK: Commands

  private func handle(_ command: Command) {
    switch command {
    case .connected(let connection, let name):
      clients[connection.id] = Client(connection: connection, name: name)
      send(
        .welcome(
          protocol: ProtocolVersion.current, server: "storedaemon \(DaemonOptions.version)", version: store.version,
          epoch: epoch), to: connection)
    case .disconnected(let id):
      clients[id] = nil
      waits = waits.filter { $0.value.connectionID != id }
    case .message(let id, let message):
      guard let client = clients[id], !client.connection.isClosing else { return }
      handle(message, from: client)
      client.connection.credits.signal()
    case .invalid(let id, let requestID, let error):
      guard let client = clients[id], !client.connection.isClosing else { return }
      send(.error(id: requestID, code: error.code, message: error.message), to: client.connection)
      client.connection.credits.signal()
    case .effectReply(let reply, let id):
      store.deliver(reply, to: id)
    case .shutdown(let done):
      for client in clients.values {
        client.connection.outbox.offer(MessageCodec.frame(ServerMessage.goodbye(reason: "storedaemon is shutting down")), droppable: false)
        client.connection.outbox.finish()
      }
      isRunning = false
      done()
    }
  }

  private func handle(_ message: ClientMessage, from client: Client) {
    let connection = client.connection
    switch message {
    case .hello:
      send(.error(id: nil, code: .handshake, message: "'hello' may be sent only once"), to: connection)

    case .send(let id, let input, let wait):
      let action: AppFeature.Action
      do throws(MessageError) {
        action = try resolve(input)
      } catch {
        send(.error(id: id, code: error.code, message: error.message), to: connection)
        return
      }
      let origin = nextOrigin
      nextOrigin += 1
      if wait { waits[origin] = Wait(connectionID: connection.id, requestID: id) }
      // Reduced, published to subscribers, then acknowledged: a journal write
      // and fsync (issue 5) go between `store.send` and the acknowledgement.
      let version = store.send(action, origin: origin)
      send(.ack(id: id, version: version), to: connection)

    case .get(let id, let path):
      switch value(at: path) {
      case .success(let value): send(.state(id: id, version: store.version, path: path, value: value), to: connection)
      case .failure(let error): send(.error(id: id, code: error.code, message: error.message), to: connection)
      }

    case .subscribe(let id, let path, let since, let clientEpoch):
      // A version from another epoch names another lineage: start afresh.
      let resumable = clientEpoch == nil || clientEpoch == epoch
      subscribe(client, id: id, path: path, since: since, resumable: resumable)

    case .actions(let id):
      send(.actions(id: id, actions: actionListing), to: connection)

    case .status(let id):
      send(.status(id: id, report: statusReport), to: connection)
    }
  }

  private func resolve(_ input: ClientMessage.ActionInput) throws(MessageError) -> AppFeature.Action {
    let json: JSONValue
    switch input {
    case .json(let value):
      json = value
    case .path(let path, let arguments):
      do {
        json = try ActionPath.parse(path: path, arguments: arguments, schema: schema)
      } catch {
        throw MessageError(.invalidAction, "\(error)")
      }
    }
    do {
      return try CanonicalJSON.decode(AppFeature.Action.self, from: json)
    } catch {
      throw MessageError(
        .invalidAction,
        "\(CanonicalJSON.text(json)) is not an action: \(error). `tcactl actions` lists the valid ones.")
    }
  }

  private func value(at path: String) -> Result<JSONValue, MessageError> {
    let pointer: JSONPointer
    do {
      pointer = try JSONPointer(path)
    } catch {
      return .failure(MessageError(.invalidPath, "'\(path)' is not a JSON Pointer: \(error)"))
    }
    guard let value = pointer.value(in: published) else {
      return .failure(MessageError(.invalidPath, "no state at '\(path)'; \(Self.whatExists(along: pointer, in: published))"))
    }
    return .success(value)
  }

  /// Describes the deepest part of `document` that `pointer` reaches, for an
  /// error message: its keys, or its length.
  private static func whatExists(along pointer: JSONPointer, in document: JSONValue) -> String {
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

  // MARK: Subscriptions

  private func subscribe(_ client: Client, id: Int, path: String, since: UInt64?, resumable: Bool) {
    let connection = client.connection
    guard client.subscription == nil else {
      send(.error(id: id, code: .alreadySubscribed, message: "this connection is already subscribed; open another for a second subscription"), to: connection)
      return
    }
    let pointer: JSONPointer
    let value: JSONValue
    switch self.value(at: path) {
    case .success(let found):
      value = found
      pointer = (try? JSONPointer(path)) ?? JSONPointer.root
    case .failure(let error):
      send(.error(id: id, code: error.code, message: error.message), to: connection)
      return
    }
    client.subscription = Subscription(pointer: pointer, lastSent: .now)
    if let since, resumable, let missed = history.changes(after: since, upTo: store.version),
      pointer.isRoot || !missed.contains(where: { replacesView(pointer, $0) })
    {
      send(.ack(id: id, version: since), to: connection)
      for change in missed {
        offerDiff(change, to: client, document: nil)
      }
    } else {
      let snapshot = ServerMessage.snapshot(version: store.version, path: path, value: value, notice: since == nil ? nil : .compacted)
      send(snapshot, to: connection)
    }
  }

  private func publish(version: UInt64, action: AppFeature.Action, state: AppFeature.State) {
    let document: JSONValue
    let actionJSON: JSONValue
    do {
      document = try CanonicalJSON.value(of: state)
      actionJSON = try CanonicalJSON.value(of: action)
    } catch {
      // Unreachable with Codable state (non-finite numbers encode as strings);
      // should it happen, no subscriber may resume across the missing diff.
      Log.error("version \(version): the state or action did not encode as JSON: \(error); subscribers will resync")
      history.removeAll()
      return
    }
    let patch = JSONPatch.diff(from: published, to: document)
    let summary = ActionPath.describe(actionJSON, schema: schema)
    // Encoded once: the frame root subscribers get, and its size is what the
    // history charges for the change.
    let rootFrame = MessageCodec.frame(
      ServerMessage.diff(version: version, action: actionJSON, summary: summary, patch: JSONPatch.json(patch)))
    let change = DiffHistory.Change(
      version: version, action: actionJSON, summary: summary, patch: patch, byteCount: rootFrame.count)
    published = document
    history.append(change)
    if let wait = waits[store.reducingOrigin], wait.changes.count < Self.maximumWaitChanges {
      waits[store.reducingOrigin]!.changes.append(
        .object([
          "version": .int(Int(clamping: version)), "action": .string(change.summary), "patch": JSONPatch.json(change.patch),
        ]))
    }
    for client in clients.values where client.subscription != nil {
      if client.subscription!.pointer.isRoot {
        offer(rootFrame, to: client)
      } else {
        offerDiff(change, to: client, document: document)
      }
    }
  }

  /// Whether `change`, seen from `pointer`, replaces the whole view: such a
  /// change can only be sent with the value the view had after it, which the
  /// history does not keep, so a resume across it gets a snapshot instead.
  private func replacesView(_ pointer: JSONPointer, _ change: DiffHistory.Change) -> Bool {
    guard let scoped = JSONPatch.scoped(change.patch, to: pointer, newDocument: published) else { return true }
    return scoped.contains { operation in
      if case .replace(let path, _) = operation, path.isRoot { return true }
      return false
    }
  }

  /// Offers one change to a subscriber, scoped to its path; `document` is the
  /// state after the change (nil when replaying history, where the scoped
  /// patch is computed against what the history holds).
  private func offerDiff(_ change: DiffHistory.Change, to client: Client, document: JSONValue?) {
    guard let subscription = client.subscription else { return }
    let patch: [PatchOperation]
    if subscription.pointer.isRoot {
      patch = change.patch
    } else {
      // `nil`: the subscribed part no longer exists; it reads as null from now on.
      let scoped =
        JSONPatch.scoped(change.patch, to: subscription.pointer, newDocument: document ?? published)
        ?? [.replace(path: .root, value: .null)]
      guard !scoped.isEmpty else { return }
      patch = scoped
    }
    offer(diffFrame(change, patch: patch), to: client)
  }

  private func diffFrame(_ change: DiffHistory.Change, patch: [PatchOperation]) -> [UInt8] {
    let patchJSON = JSONPatch.json(patch)
    return MessageCodec.frame(ServerMessage.diff(version: change.version, action: change.action, summary: change.summary, patch: patchJSON))
  }

  private func offer(_ frame: [UInt8], to client: Client) {
    if client.connection.outbox.offer(frame, droppable: true) {
      client.subscription?.lastSent = .now
      return
    }
    resync(client)
  }

  /// The subscriber's queue is full: drop what waits and send a fresh snapshot.
  /// A subscriber that reads nothing across three resyncs in a row is
  /// disconnected; one that is merely slow is resynced as often as needed.
  private func resync(_ client: Client) {
    guard var subscription = client.subscription else { return }
    let connection = client.connection
    connection.outbox.dropDroppable()
    let taken = connection.outbox.framesTaken
    subscription.stalledResyncs = taken == subscription.takenAtLastResync ? subscription.stalledResyncs + 1 : 1
    subscription.takenAtLastResync = taken
    client.subscription = subscription
    let path = subscription.pointer.description
    guard subscription.stalledResyncs < 3, let value = subscription.pointer.value(in: published),
      connection.outbox.offer(
        MessageCodec.frame(ServerMessage.snapshot(version: store.version, path: path, value: value, notice: .resynced)),
        droppable: true)
    else {
      let reason = "the subscriber read nothing between \(subscription.stalledResyncs) resyncs in a row; disconnecting it"
      connection.closeWithNotice(.lagged, reason)
      clients[connection.id] = nil
      Log.warning("connection \(connection.id) (\(client.name)): \(reason)")
      return
    }
    client.subscription?.lastSent = .now
  }

  /// Tells each waiting client whose action's effects have all finished.
  private func reportSettledWaits() {
    for (origin, wait) in waits where store.isSettled(origin: origin) {
      waits[origin] = nil
      guard let client = clients[wait.connectionID] else { continue }
      send(.settled(id: wait.requestID, version: store.version, changes: .array(wait.changes)), to: client.connection)
    }
  }

  private func sendHeartbeats() {
    let now = ContinuousClock.now
    for client in clients.values {
      guard let subscription = client.subscription, now - subscription.lastSent >= options.heartbeatInterval else { continue }
      offer(MessageCodec.frame(ServerMessage.heartbeat(version: store.version)), to: client)
    }
  }

  // MARK: Helpers

  /// Queues an answer. Answers are never dropped: if diffs fill the queue they
  /// give way (the subscriber is resynchronised); a client whose queue is full
  /// of unread answers is disconnected.
  private func send(_ message: ServerMessage, to connection: Connection) {
    let frame = MessageCodec.frame(message)
    if connection.outbox.offer(frame, droppable: false) { return }
    if let client = clients[connection.id], client.subscription != nil {
      resync(client)
      if connection.outbox.offer(frame, droppable: false) { return }
    }
    connection.closeWithError(id: nil, .internal, "the client does not read its replies; closing")
    clients[connection.id] = nil
  }

  private var statusReport: JSONValue {
    let uptime = ContinuousClock.now - startedAt
    return .object([
      "server": .string("storedaemon \(DaemonOptions.version)"),
      "protocol": .int(ProtocolVersion.current),
      "pid": .int(Int(getpid())),
      "uptimeSeconds": .int(Int(uptime.components.seconds)),
      "epoch": .string(epoch),
      "version": .int(Int(store.version)),
      "clients": .int(clients.count),
      "subscribers": .int(clients.values.filter { $0.subscription != nil }.count),
      "socket": .string(options.socketPath),
      "stateDirectory": .string(options.stateDirectory),
      "effectsInFlight": .int(store.inFlight.count),
      "workers": .array([]),
    ])
  }
}
