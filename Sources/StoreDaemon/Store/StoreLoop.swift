import ComposableCore
import ActionLanguage
import Dispatch
import Features
import FoundationEssentials
import Glibc
import Journal
import JSON
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
  // Safe: `inbox` is thread-safe (a Mutex and a pipe), and `notifier`
  // and `historyReader` are Sendable; every other stored property is read and
  // written only by the thread running `run()` (here and in the StoreLoop+*.swift
  // extensions). Members are internal only so that those files can share them.

  enum Command: Sendable {
    case connected(Connection, client: String)
    case disconnected(connectionID: Int)
    case message(connectionID: Int, ClientMessage)
    /// A frame from a greeted client that is not a valid message.
    case invalid(connectionID: Int, requestID: Int?, MessageError)
    /// What an effect worker sent, read by the loop itself, or its exit,
    /// posted by the thread that reaped it.
    case worker(WorkerKind, generation: Int, WorkerLink.Report)
    /// What the history reader found for a client's `log` or `get` with `at`.
    case history(connectionID: Int, requestID: Int, Result<HistoryReader.Reply, MessageError>)
    /// The client has read enough of its answers: its waiting requests may
    /// go on (``Outbox/whenRoom(_:)``).
    case room(connectionID: Int)
    /// A reload (SIGHUP) is done: the new feature settings, which actions
    /// reduced from now on see, or nil if they could not be read.
    case reconfigure(AppConfiguration?, done: @Sendable () -> Void)
    case shutdown(done: @Sendable () -> Void)

    /// Whether handling the command may reduce actions (and so joins the
    /// open batch); any other command first commits it.
    var reduces: Bool {
      switch self {
      case .message(_, .send), .worker: true
      default: false
      }
    }
  }

  let inbox = Inbox<Command>()
  var waiter: LoopWaiter
  let options: DaemonOptions
  let startedAt = ContinuousClock.now
  /// Names the lineage of versions: kept in the journal, so versions carry on
  /// across restarts; a new one only when recovery dropped damaged data.
  let epoch: String
  let journal: JournalDirectory
  let writer: JournalWriter
  let snapshotPolicy = SnapshotPolicy.standard
  let historyReader: HistoryReader
  /// Tells systemd how the daemon is doing (StoreLoop+Service.swift).
  let notifier: ServiceNotifier
  var service = ServiceState()
  /// The actions reduced since the last commit to the journal.
  var batch: Batch?
  /// The diff frames of the open batch's versions as root subscribers get
  /// them, one after another: each root subscriber is offered them as one
  /// piece when the batch is released (or before any other frame it is
  /// offered meanwhile), not one queue append per subscriber and version.
  var batchRootFrames: [UInt8] = []
  /// The connections resynced while the batch was open: their queued diffs
  /// from before it are gone, so if the batch is refused (and its snapshot
  /// with it) they are resynced again.
  var resyncedInBatch: Set<Int> = []
  /// Why writes are refused for good (a failed sync or I/O error), if they are.
  var writesRefused: String?

  var store: Store<AppFeature>!
  var supervisor: WorkerSupervisor!
  var published: JSONValue = .null
  /// Encodes the state after each action, re-encoding only the parts it changed.
  var stateEncoder = StateDocumentEncoder<AppFeature.State>()
  var history: DiffHistory
  var clients: [Int: Client] = [:]
  let schema = AppFeature.Action.actionSchema
  var nextOrigin: Origin = 1
  /// The client action about to be reduced and who sent it, for its journal
  /// record; taken by that record, so the actions that follow from it are
  /// recorded as sent by an effect.
  var currentSend: (origin: Origin, sender: JSONValue)?
  /// The JSON, its canonical bytes and the command line of the client
  /// action about to be reduced, taken by the publication of its version.
  var currentSendText: (json: JSONValue, canonical: [UInt8], summary: String)?
  /// What reading the actions clients sent gave, for the next time.
  var sentActions = SentActionMemo()
  /// Sends with `wait` whose effects are still running, by origin.
  var waits: [Origin: Wait] = [:]
  /// The clients whose connections have stopped reading (they closed, or
  /// closed their writing half), let go once they are answered.
  var leaving: Set<Int> = []

  /// The most changes a `settled` answer lists; an action whose effects keep
  /// changing the state (a repeating timer) would otherwise grow it forever.
  static let maximumWaitChanges = 1000

  struct Wait {
    let connectionID: Int
    let requestID: Int
    var changes: [JSONValue] = []
  }
  /// Which actions clients may send, and the `actions` listings; built once.
  lazy var actionAccess = ActionAccess(schema: schema, allowsInternal: options.allowsInternalActions)
  var isRunning = true
  /// The longest the loop sleeps when idle.
  var tick: Duration { .milliseconds(max(50, options.heartbeatInterval.wholeMilliseconds / 2)) }
  /// When ``sendHeartbeats()`` next looks for idle subscribers.
  var nextHeartbeatCheck = ContinuousClock.now

  final class Client {
    let connection: Connection
    let name: String
    /// The part of the state the client watches, if it subscribed.
    var subscription: JSONPointer? {
      didSet { (isSubscribed, watchesRoot) = (subscription != nil, subscription?.isRoot ?? false) }
    }
    /// Whether ``subscription`` is set, and whether it is the whole state:
    /// read for every subscriber and every version, so kept as plain flags
    /// rather than copied out of the optional each time.
    private(set) var isSubscribed = false
    private(set) var watchesRoot = false
    /// When a diff, snapshot or heartbeat was last offered to the subscriber.
    var lastSent = ContinuousClock.now
    /// How many bytes of ``StoreLoop/batchRootFrames`` a root subscriber was
    /// offered (or, subscribed during the batch, came after).
    var batchRootOffset = 0
    var follower: LogFollower?
    /// Whether the history reader is answering one of the client's requests;
    /// its later requests wait in `deferred` meanwhile.
    var historyPending = false
    /// The client's requests that wait, in order: for a history read to be
    /// answered, or for the client to read the answers already queued.
    var deferred: [Command] = []
    /// Whether `deferred` is being worked through (its head was just taken).
    var isDraining = false
    init(connection: Connection, name: String) {
      self.connection = connection
      self.name = name
    }
  }

  init(
    options: DaemonOptions, workers: WorkerSupervisor.Configuration, dependencies: DependencyValues,
    notifier: ServiceNotifier
  ) throws {
    self.options = options
    self.notifier = notifier
    self.history = DiffHistory(capacity: options.retainedDiffs)
    waiter = LoopWaiter(spin: options.spin)
    let recovery = try notifier.extendingStartTimeout(status: "recovering the state from the journal") {
      try StateRecovery.run(options: options, retained: options.retainedDiffs)
    }
    epoch = recovery.epoch
    journal = recovery.journal
    writer = recovery.writer
    for change in recovery.recentChanges { history.append(change) }
    historyReader = HistoryReader(
      reader: journal.reader, initialState: (try? CanonicalJSON.value(of: AppFeature.State())) ?? .null,
      schema: AppFeature.Action.actionSchema, pageBytes: min(1 << 20, options.outboxLimit / 2))
    supervisor = WorkerSupervisor(configuration: workers) { [inbox] kind, generation, report in
      inbox.post(.worker(kind, generation: generation, report))
    }
    store = Store(
      initialState: recovery.state, reducer: AppFeature(), executor: supervisor, version: recovery.version,
      dependencies: dependencies)
    published = recovery.document
    store.didReduce = { [unowned self] version, action, state in
      publish(version: version, action: action, state: state)
    }
  }

  /// Queues a command for the loop.
  func post(_ command: Command) {
    inbox.post(command)
  }

  /// Runs the loop until a shutdown command; call on the loop's own thread.
  /// The effect workers are started first, from this thread.
  func run() {
    MemoryRelease.configure()
    supervisor.startAll()
    reduceRecoveryActionIfNeeded()
    while isRunning {
      let ready = waiter.wait(
        for: inbox, until: min(.now + tick, supervisor.nextWakeup, nextServiceWakeup),
        alsoReading: supervisor.sockets)
      // Every action reduced from these commands joins one batch, made
      // durable with one sync (group commit) before anything about it leaves
      // the daemon. A command that reads the state ends the batch first, so
      // it reads only durable versions.
      let commands = inbox.take()
      if commands.isEmpty && ready.isEmpty { MemoryRelease.trimIfNeeded() }
      for command in commands where isRunning { perform(command) }
      if !ready.isEmpty {
        for (kind, generation, report) in supervisor.read(ready) where isRunning {
          perform(.worker(kind, generation: generation, report))
        }
      }
      commitBatch()
      guard isRunning else { break }
      supervisor.tick()
      deliverWorkerReplies()
      reportSettledWaits()
      if !leaving.isEmpty { letLeavingClientsGo() }
      commitBatch()
      sendHeartbeats()
      reportToServiceManager()
    }
  }

  /// Handles one command: it joins the open batch if it may reduce actions,
  /// and otherwise first commits it.
  func perform(_ command: Command) {
    if command.reduces { openBatchIfNeeded() } else { commitBatch() }
    handle(command)
    deliverWorkerReplies()
    reportSettledWaits()
    if !leaving.isEmpty { letLeavingClientsGo() }
    pingWatchdogIfDue()
  }

  /// Forgets the clients that stopped sending once nothing they asked for is
  /// still to be answered (a waiting request, a history read, a `settled`),
  /// and closes their connections after those answers.
  func letLeavingClientsGo() {
    for id in leaving {
      guard let client = clients[id] else {
        leaving.remove(id)
        continue
      }
      let owesAnswers =
        !client.deferred.isEmpty || client.historyPending || waits.values.contains { $0.connectionID == id }
      guard client.connection.isClosing || !owesAnswers else { continue }
      clients[id] = nil
      waits = waits.filter { $0.value.connectionID != id }
      leaving.remove(id)
      client.connection.outbox.finish()
    }
  }

  /// Reduces the actions the workers' replies map to, including the failures
  /// the supervisor made up for requests that could not be carried out.
  func deliverWorkerReplies() {
    while true {
      let replies = supervisor.takeReplies()
      if replies.isEmpty { return }
      openBatchIfNeeded()
      for (reply, id) in replies { store.deliver(reply, to: id) }
    }
  }

  // MARK: Commands

  func handle(_ command: Command) {
    switch command {
    case .connected(let connection, let name):
      clients[connection.id] = Client(connection: connection, name: name)
      send(
        .welcome(
          protocol: ProtocolVersion.current, server: "storedaemon \(DaemonOptions.version)", version: store.version,
          epoch: epoch), to: connection)
    case .disconnected(let id):
      guard clients[id] != nil else { return }
      leaving.insert(id)
      letLeavingClientsGo()
    case .message(let id, let message):
      guard let client = clients[id], !client.connection.isClosing else { return }
      guard mayHandleRequest(of: client) else { return postpone(command, of: client) }
      handle(message, from: client)
      client.connection.credits.signal()
    case .invalid(let id, let requestID, let error):
      guard let client = clients[id], !client.connection.isClosing else { return }
      guard mayHandleRequest(of: client) else { return postpone(command, of: client) }
      send(.error(id: requestID, code: error.code, message: error.message), to: client.connection)
      client.connection.credits.signal()
    case .room(let id):
      guard let client = clients[id], !client.connection.isClosing else { return }
      handleDeferredRequests(of: client)
    case .history(let connectionID, let requestID, let result):
      finishHistoryRead(connectionID: connectionID, requestID: requestID, result)
    case .reconfigure(let configuration, let done):
      if let configuration { store.dependencies.configuration = configuration }
      if service.readySent { notifier.notify(["READY=1"]) }
      done()
    case .worker(let kind, let generation, let report):
      supervisor.handle(report, kind: kind, generation: generation)
    case .shutdown(let done):
      // Pending effects fail (their features hear why), and the workers are
      // told to stop by the end of file on their sockets. The daemon says
      // goodbye to the clients once this is done.
      let links = supervisor.stopAll()
      deliverWorkerReplies()
      commitBatch()
      do {
        try writer.close()
      } catch {
        Log.error("closing the journal: \(error)")
      }
      let deadline = DispatchTime.now() + .seconds(1)
      for link in links where !link.waitUntilExited(deadline: deadline) { link.kill() }
      isRunning = false
      done()
    }
  }

  func handle(_ message: ClientMessage, from client: Client) {
    let connection = client.connection
    switch message {
    case .hello:
      send(.error(id: nil, code: .handshake, message: "'hello' may be sent only once"), to: connection)

    case .send(let id, let input, let wait):
      #if DEBUG
        stallIfAsked(input)
      #endif
      let sent: SentActionMemo.Entry
      do throws(MessageError) {
        sent = try sentActions.entry(for: input) { () throws(MessageError) in try read(input) }
      } catch {
        send(.error(id: id, code: error.code, message: error.message), to: connection)
        return
      }
      let action = sent.action
      if let reason = writesRefused {
        send(.error(id: id, code: .journal, message: "the action was not applied: \(reason)"), to: connection)
        return
      }
      let origin = nextOrigin
      if wait { waits[origin] = Wait(connectionID: connection.id, requestID: id) }
      currentSend = (origin, .object(["client": .string(client.name), "connection": .int(connection.id), "origin": .int(Int(origin))]))
      currentSendText = (sent.json, sent.canonical, sent.summary)
      defer { (currentSend, currentSendText) = (nil, nil) }
      // Reduced and published, then acknowledged; the frames wait in the
      // held outboxes until the batch is durable (StoreLoop+Journal.swift).
      // An action that reaches nothing is refused, with the state unchanged.
      let version: UInt64
      do throws(DroppedAction) {
        version = try store.sendRefusingDropped(action, origin: origin)
      } catch {
        waits[origin] = nil
        let message = "\(sent.summary) was not applied: \(error.reason); the state is unchanged and no version was used"
        send(.error(id: id, code: .invalidAction, message: message), to: connection)
        return
      }
      nextOrigin += 1
      batch?.answers.append(.acknowledgement(connection, requestID: id, origin: origin))
      send(.ack(id: id, version: version), to: connection)

    case .get(let id, let path, let version?):
      requestState(client, id: id, path: path, at: version)

    case .get(let id, let path, nil):
      switch value(at: path) {
      case .success(let value): send(.state(id: id, version: store.version, path: path, value: value), to: connection)
      case .failure(let error): send(.error(id: id, code: error.code, message: error.message), to: connection)
      }

    case .subscribe(let id, let path, let since, let clientEpoch):
      guard client.follower == nil else {
        send(
          .error(id: id, code: .alreadySubscribed, message: "this connection follows the log; open another to subscribe"),
          to: connection)
        return
      }
      // A version from another epoch names another lineage: start afresh.
      let resumable = clientEpoch == nil || clientEpoch == epoch
      subscribe(client, id: id, path: path, since: since, resumable: resumable)

    case .actions(let id, let all):
      send(.actions(id: id, actions: actionAccess.listing(all: all)), to: connection)

    case .status(let id):
      send(.status(id: id, report: statusReport), to: connection)

    case .log(let id, let since, let last, let follow):
      requestLog(client, id: id, since: since, last: last, follow: follow)
    }
  }

  /// Reads a client's action: the action, its JSON (encoded from the
  /// action, whatever the client wrote) and that JSON's bytes, and its
  /// command line; an internal action a client may not send is refused
  /// (``ActionAccess``).
  func read(_ input: ClientMessage.ActionInput) throws(MessageError) -> SentActionMemo.Entry {
    let action = try resolve(input)
    let json: JSONValue
    do {
      json = try CanonicalJSON.value(of: action)
    } catch {
      // Unreachable with Codable actions (non-finite numbers encode as strings).
      throw MessageError(.invalidAction, "the action does not encode as JSON: \(error)")
    }
    if let refusal = actionAccess.refusal(of: json) { throw MessageError(.invalidAction, refusal) }
    return SentActionMemo.Entry(
      action: action, json: json, canonical: CanonicalJSON.encode(json), summary: ActionPath.describe(json, schema: schema))
  }

  func resolve(_ input: ClientMessage.ActionInput) throws(MessageError) -> AppFeature.Action {
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
        "\(Self.excerpt(CanonicalJSON.text(json))) is not an action: \(error). `tcactl actions` lists the valid ones.")
    }
  }

  /// `text`, or its beginning and its length when it is long: an error
  /// quotes what the client sent, not a megabyte of it.
  static func excerpt(_ text: String, limit: Int = 200) -> String {
    guard text.utf8.count > limit else { return text }
    return "\(text.prefix(limit))… (\(text.utf8.count) bytes)"
  }

  func value(at path: String) -> Result<JSONValue, MessageError> {
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

  // MARK: Flow control

  /// Whether a request of `client` may be handled now: none of its earlier
  /// ones waits, no history read is answering one, and it has read its
  /// answers but for less than its buffer. A client that does not read its
  /// answers is not read either: its requests wait (and, once 64 do, its
  /// socket is not read) until it catches up.
  private func mayHandleRequest(of client: Client) -> Bool {
    client.isDraining
      || (client.deferred.isEmpty && !client.historyPending && !client.connection.outbox.answersAreFull)
  }

  /// Keeps a request for later. Whatever made the client's requests wait
  /// (a history read, or unread answers) resumes them when it ends.
  private func postpone(_ command: Command, of client: Client) {
    client.deferred.append(command)
    if !client.historyPending && client.connection.outbox.answersAreFull { waitForRoom(client) }
  }

  /// Handles the client's waiting requests, in order, while it may.
  func handleDeferredRequests(of client: Client) {
    let id = client.connection.id
    while !client.deferred.isEmpty, !client.historyPending, clients[id] === client {
      guard !client.connection.outbox.answersAreFull else { return waitForRoom(client) }
      client.isDraining = true
      perform(client.deferred.removeFirst())
      client.isDraining = false
    }
  }

  /// Asks the client's outbox to tell the loop once it has room again.
  func waitForRoom(_ client: Client) {
    let id = client.connection.id
    client.connection.outbox.whenRoom { [inbox] in inbox.post(.room(connectionID: id)) }
  }

  // MARK: Helpers

  /// Queues an answer. Answers are never dropped, nor a reason to drop a
  /// client: they are never refused, and the client's next requests wait
  /// while its unread answers fill its buffer (``mayHandleRequest(of:)``).
  func send(_ message: ServerMessage, to connection: Connection) {
    switch message {
    case .ack, .settled, .diff: break
    default: batch?.answers.append(.reply(connection, message))
    }
    offerAnswer(MessageCodec.frame(message), to: connection)
  }

  /// Queues the frame of an answer, as ``send(_:to:)`` does.
  func offerAnswer(_ frame: [UInt8], to connection: Connection) {
    if !batchRootFrames.isEmpty, let client = clients[connection.id] {
      offerBatchRootFrames(to: client, now: .now)
    }
    connection.outbox.offerAnswer(frame)
  }

  var statusReport: JSONValue {
    let uptime = ContinuousClock.now - startedAt
    return .object([
      "server": .string("storedaemon \(DaemonOptions.version)"),
      "protocol": .int(ProtocolVersion.current),
      "pid": .int(Int(getpid())),
      "uptimeSeconds": .int(Int(uptime.components.seconds)),
      "epoch": .string(epoch),
      "version": .int(Int(store.version)),
      "clients": .int(clients.count),
      "subscribers": .int(clients.values.filter(\.isSubscribed).count),
      "socket": .string(options.socketPath),
      "stateDirectory": .string(options.stateDirectory),
      "effectsInFlight": .int(store.inFlight.count),
      "journal": journalStatus,
      "workers": supervisor.status,
    ])
  }
}
