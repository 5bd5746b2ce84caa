import ActionLanguage
import ComposableCore
import Dispatch
import FoundationEssentials
import Glibc
import JSON
import Journal
import Platform
import Replay
import Replication
import Synchronization
import Wire

/// The daemon's single owner of the state: every action, from every client and
/// every effect, is reduced here, one at a time, in arrival order.
///
/// Other threads only ``post(_:)`` commands; the loop's own thread runs
/// ``run()`` and is the only one that touches the store and the owners it
/// wires: the clients (``ClientRegistry``), the fan-out of diffs
/// (``Publisher``), the batch and its commit to the journal
/// (``JournalCommitter``), the history reads (``HistoryRequests``), the
/// worker processes (``WorkerSupervisor``) and systemd's view
/// (``ServiceReporter``). It never blocks on a client: answers go to each
/// connection's bounded ``Outbox``, and a subscriber that cannot keep up is
/// resynchronised or disconnected.
final class StoreLoop<App: HostedApp>: @unchecked Sendable {
  // Safe: `inbox` is thread-safe (a Mutex and an eventfd); every other
  // stored property is read and written only by the thread running `run()`
  // (made in `init`, on the thread that then starts that one).

  /// How many rounds of failing what failures started a stop allows.
  private static var shutdownRounds: Int { 64 }

  let inbox: Inbox<LoopCommand>
  let options: DaemonOptions
  let startedAt = ContinuousClock.now
  /// Names the lineage of versions: kept in the journal, so versions carry on
  /// across restarts; a new one only when recovery dropped damaged data.
  let epoch: String
  let store: Store<App.Root>
  /// The batch of actions under way, from reading to acknowledging.
  let turn: Turn<App>
  let clients = ClientRegistry()
  /// What the loop waits on: the inbox's wake signal, the listener, every
  /// client's socket and every worker's.
  private let poll: EventPoll
  /// The clients' sockets: accepting, reading, writing, deadlines.
  let server: ConnectionServer
  /// The workers' sockets in the poll, by the key that names each process.
  private var watchedWorkers: [UInt64: WorkerSupervisor.Socket] = [:]
  let publisher: Publisher
  /// What each action's reducer drew from the date, UUID and random number
  /// dependencies, journaled with it so that a replay reproduces it.
  private let inputs = InputRecorder()
  let committer: JournalCommitter
  let supervisor: WorkerSupervisor
  let history: HistoryRequests
  let service: ServiceReporter
  private var waiter: LoopWaiter
  private var isRunning = true
  /// The longest the loop sleeps when idle.
  private var tick: Duration { .milliseconds(max(50, options.heartbeatInterval.wholeMilliseconds / 2)) }

  init(
    options: DaemonOptions, workers: WorkerSupervisor.Configuration, dependencies: DependencyValues,
    notifier: ServiceNotifier
  ) throws {
    self.options = options
    inbox = try Inbox()
    waiter = LoopWaiter(spin: options.spin)
    poll = try EventPoll()
    try poll.add(inbox.wake.descriptor, token: LoopWaiter.wakeToken, interest: .readable)
    server = ConnectionServer(poll: poll, options: options)
    var storeWasInEtcd = false
    if let replication = options.replication {
      storeWasInEtcd = try notifier.extendingStartTimeout(status: "checking the journal against the replicated log") {
        try ReplicaSetup.prepare(journalPath: options.stateDirectory + "/journal", options: replication)
      }
    }
    let recovery = try notifier.extendingStartTimeout(status: "recovering the state from the journal") {
      try StateRecovery.run(
        options: options, retained: options.retainedDiffs, initialState: App.initialState,
        schema: App.Root.Action.actionSchema, appSchema: App.schema, build: App.build)
    }
    epoch = recovery.epoch
    var changes = DiffHistory(capacity: options.retainedDiffs)
    for change in recovery.recentChanges { changes.append(change) }
    let schema = App.Root.Action.actionSchema
    service = ServiceReporter(notifier: notifier, startedAt: startedAt)
    supervisor = WorkerSupervisor(configuration: workers) { [inbox] kind, generation, report in
      inbox.post(.worker(kind, generation: generation, report))
    }
    let inbox = inbox
    let replica = options.replication.map { replication in
      Replica(
        options: replication,
        me: LeaderInfo(
          node: replication.nodeName, socket: options.socketPath,
          address: options.tcpListen.map { "\($0.host):\($0.port)" }),
        epoch: recovery.epoch, schema: App.schemaVersion, storeWasInEtcd: storeWasInEtcd,
        post: { command in inbox.post(command) })
    }
    committer = try JournalCommitter(
      journal: recovery.journal, writer: recovery.writer, epoch: recovery.epoch, schema: App.schemaVersion,
      syncPolicy: options.syncPolicy, supervisor: supervisor, replica: replica)
    if let syncDone = committer.syncDone {
      try poll.add(syncDone, token: JournalSyncThread.token, interest: .readable)
    }
    publisher = Publisher(
      document: recovery.document, version: recovery.version, history: changes, clients: clients, schema: schema,
      options: options)
    let historyReader = HistoryReader(
      reader: recovery.journal.reader.upgrading(.reencoding(state: App.Root.State.self, action: App.Root.Action.self)),
      initialState: (try? CanonicalJSON.value(of: App.initialState)) ?? .null,
      schema: schema, pageBytes: min(1 << 20, options.outboxLimit / 2),
      whatIf: { history, version, edit, dependencies throws(ReplayError) in
        // The history reader's thread makes a reducer of its own.
        let replay = JournalReplay(
          reducer: App.makeRoot(), initialState: App.initialState, schema: App.schema, dependencies: dependencies)
        return try replay.whatIf(history, at: version, edit)
      })
    history = HistoryRequests(
      reader: historyReader, schema: schema, clients: clients, publisher: publisher,
      post: { [inbox] command in inbox.post(command) })
    let root = App.makeRoot()
    store = Store(
      initialState: recovery.state, reducer: root, executor: committer, version: recovery.version,
      dependencies: dependencies.recordingInputs(into: inputs))
    turn = Turn(
      store: store, root: root, inputs: inputs,
      reader: ActionReader(schema: schema, allowsInternal: options.allowsInternalActions), publisher: publisher,
      committer: committer, history: history, supervisor: supervisor, clients: clients, gate: server.gate)
    turn.loopIsIdle = { [unowned self] in hasNothingElseToDo() }
  }

  /// Serves the clients that connect to `listener` and `policy` allows,
  /// once the loop runs. Called once, before ``run()``.
  func listen(on listener: Listener, policy: PeerPolicy) throws(SystemFailure) {
    try server.listen(on: listener, policy: policy)
  }

  /// Serves the clients that connect to the TCP listener and give its
  /// token, too. Called at most once, before ``run()``.
  func listen(on tcp: TCPListener) throws(SystemFailure) {
    try server.listen(on: tcp)
  }

  /// Queues a command for the loop.
  func post(_ command: LoopCommand) {
    inbox.post(command)
  }

  /// Runs the loop until a shutdown command; call on the loop's own thread.
  /// The effect workers are started first, from this thread.
  func run() {
    MemoryRelease.configure()
    if let replica = committer.replica {
      // A standby until the replica thread wins the leadership
      // (``takeOver()``): the workers start then.
      do {
        try replica.start(after: store.version)
      } catch {
        replica.stepDown("cannot start the replica thread: \(error)")
      }
    } else {
      supervisor.startAll()
      reduceRecoveryActionsIfNeeded()
    }
    while isRunning {
      watchWorkerSockets()
      var deadline = min(.now + tick, supervisor.nextWakeup, service.nextWakeup)
      if let next = server.nextDeadline { deadline = min(deadline, next) }
      let pending = server.hasEvents || !server.withRoom.isEmpty
      let ready = pending ? poll.wait(milliseconds: 0) : waiter.wait(for: inbox, on: poll, until: deadline)
      // What arrived is reduced with the store's dependencies bound once.
      store.reducingMany { serve(ready) }
    }
  }

  /// One pass of the loop over what `ready` found ready and what was posted.
  private func serve(_ ready: [EventPoll.Event]) {
    // Every action reduced from what arrived joins one batch, made
    // durable with one sync (group commit) before anything about it leaves
    // the daemon; the next batch is reduced while it is synced. A request
    // that reads the state first waits until everything reduced is
    // durable, so it reads only durable versions.
    var workersReady: [Int32] = []
    var workersWritable: [Int32] = []
    for event in ready {
      if event.token >= WorkerTokens.base {
        guard let descriptor = watchedWorkers[event.token - WorkerTokens.base]?.descriptor else { continue }
        if event.isWritable { workersWritable.append(descriptor) }
        if event.isReadable || event.isHungUp { workersReady.append(descriptor) }
      } else if event.token == JournalSyncThread.token {
        if let outcome = committer.takeSyncOutcome() { turn.settle(outcome) }
      } else {
        server.handle(event)
      }
    }
    if !workersWritable.isEmpty { supervisor.writeWaiting(workersWritable) }
    let commands = inbox.take()
    if commands.isEmpty && ready.isEmpty && !server.hasEvents { MemoryRelease.trimIfNeeded() }
    for command in commands where isRunning { perform(command) }
    handleClientEvents()
    if !workersReady.isEmpty && isRunning {
      // What the workers answered, read and taken in by the supervisor,
      // goes to the store in one hand-over.
      for (reply, id) in supervisor.read(workersReady) where isRunning { deliver(reply, to: id) }
    }
    turn.commit()
    server.enforceDeadlines()
    handleClientEvents()
    guard isRunning else { return }
    supervisor.tick()
    turn.deliverWorkerReplies()
    turn.reportSettledWaits()
    if !clients.leaving.isEmpty { letLeavingClientsGo() }
    turn.commit()
    // What the commit released may have made room for deferred requests.
    handleClientEvents()
    turn.commit()
    if publisher.heartbeatsAreDue {
      turn.holdFramesWhileSyncing()
      publisher.sendHeartbeats()
    }
    service.report(
      isSettled: { supervisor.allSettled }, alerts: { alerts }, status: { statusLine })
  }

  /// Handles one command: it joins the open batch if it may reduce actions,
  /// and otherwise first waits until everything reduced is durable.
  private func perform(_ command: LoopCommand) {
    if command.reduces { turn.open() } else { turn.makeDurable() }
    handle(command)
    afterReducing()
  }

  /// Reduces the action a worker's reply maps to, in the open batch.
  private func deliver(_ reply: EffectReply, to id: EffectID) {
    turn.deliver(reply, to: id)
    afterReducing()
  }

  /// What follows every command: the failures the supervisor made up are
  /// reduced, waiting senders whose effects are done are told, and clients
  /// that left are let go.
  private func afterReducing() {
    turn.deliverWorkerReplies()
    turn.reportSettledWaits()
    if !clients.leaving.isEmpty { letLeavingClientsGo() }
    service.pingWatchdogIfDue()
  }

  /// Whether no client, worker or command waits for the loop. The poll is
  /// level-triggered: the sockets it finds ready stay ready until read, so
  /// the next turn of the loop finds them again.
  private func hasNothingElseToDo() -> Bool {
    guard !server.hasEvents, server.withRoom.isEmpty, !inbox.hasCommands else { return false }
    return !poll.wait(milliseconds: 0).contains { $0.token != LoopWaiter.wakeToken } && !inbox.hasCommands
  }

  /// After a crash, the features that were waiting on an effect are told
  /// that it is gone (``Turn/reduceRecoveryActions()``).
  func reduceRecoveryActionsIfNeeded() {
    let names = turn.reduceRecoveryActions()
    guard !names.isEmpty else { return }
    Log.warning(
      "effects were in flight when \(App.name) stopped; told their features up to version \(store.version): "
        + names.joined(separator: ", "))
  }

  // MARK: Clients

  /// Forgets the clients that stopped sending once nothing they asked for is
  /// still to be answered (a waiting request, a history read, a `settled`),
  /// and closes their connections after those answers.
  private func letLeavingClientsGo() {
    for id in clients.leaving {
      guard let client = clients[id] else {
        clients.leaving.remove(id)
        continue
      }
      let owesAnswers = !client.deferred.isEmpty || client.historyPending || turn.waits(forConnection: id)
      guard client.connection.isClosing || !owesAnswers else { continue }
      clients.remove(id)
      publisher.forget(id)
      history.forget(id)
      turn.forgetWaits(ofConnection: id)
      clients.leaving.remove(id)
      client.connection.outbox.finish()
    }
  }

  // MARK: Commands

  private func handle(_ command: LoopCommand) {
    switch command {
    case .history(let connectionID, let requestID, let result):
      if let client = history.finish(connectionID: connectionID, requestID: requestID, result) {
        handleDeferredRequests(of: client)
      }
    case .reconfigure(let dependencies, let done):
      if let dependencies { store.dependencies = dependencies.recordingInputs(into: inputs) }
      if service.readySent { service.notifier.notify(["READY=1"]) }
      done()
    case .worker(let kind, let generation, let report):
      supervisor.handle(report, kind: kind, generation: generation)
    case .replicated(let records):
      applyReplicated(records)
    case .takeOver:
      takeOver()
    case .replicaBase(let reply):
      reply(publisher.version, CanonicalJSON.encode(publisher.document))
    case .shutdown(let done):
      // No new connections. Pending effects fail (their features hear why),
      // and the workers are told to stop by the end of file on their
      // sockets. The daemon says goodbye to the clients once this is done.
      server.stopAccepting()
      let links = supervisor.stopAll()
      // What the failures' actions start fails in turn once their batch
      // is durable, until no feature waits on an effect; bounded, so that a
      // feature that asks again on every failure cannot hold the stop.
      var rounds = 0
      repeat {
        turn.deliverWorkerReplies()
        turn.makeDurable()
        rounds += 1
      } while supervisor.hasReplies && rounds < Self.shutdownRounds
      if supervisor.hasReplies {
        Log.warning(
          "stopping with effects still failing after \(Self.shutdownRounds) rounds; their failures are not reduced")
      }
      if let syncDone = committer.syncDone { poll.remove(syncDone) }
      do {
        try committer.close()
      } catch {
        Log.error("closing the journal: \(error)")
      }
      committer.replica?.stop()
      let deadline = ContinuousClock.now + .seconds(1)
      for link in links where !link.waitUntilExited(deadline: deadline) { link.kill() }
      // The waits the failures settled are answered before goodbye.
      turn.reportSettledWaits()
      if !clients.leaving.isEmpty { letLeavingClientsGo() }
      sayGoodbye()
      isRunning = false
      done()
    }
  }

  /// Each client reads its answers, then goodbye; one that does not read is
  /// given up on after the write timeout. Every action the loop journaled
  /// is answered in its sender's outbox by now.
  private func sayGoodbye() {
    server.sayGoodbyeToAll("\(App.name) is shutting down")
    // Only the clients now: the workers have stopped.
    for socket in watchedWorkers.values { poll.remove(socket.descriptor) }
    watchedWorkers.removeAll()
    let deadline = ContinuousClock.now + options.writeTimeout + .seconds(1)
    while server.count > 0 && ContinuousClock.now < deadline {
      let until = min(deadline, server.nextDeadline ?? deadline)
      for event in poll.wait(milliseconds: Readiness.milliseconds(until: until)) {
        if event.token == LoopWaiter.wakeToken { inbox.wake.clear() } else { server.handle(event) }
      }
      server.enforceDeadlines()
      _ = server.takeEvents()
    }
    if server.count > 0 {
      Log.warning(
        "stopping: \(server.count) client(s) did not read their last answers within the write timeout "
          + "(--write-timeout); closing them")
      server.closeAll()
    }
  }

  // MARK: The event loop

  /// Watches the sockets of the workers that run now, and no others: each
  /// for what it says, and for room while commands wait to be written.
  private func watchWorkerSockets() {
    guard !supervisor.socketsAre(watchedWorkers) else { return }
    let sockets = supervisor.sockets
    // Those gone first: a descriptor number may have been reused by a new
    // worker's socket, which is then added under its own key.
    for (key, socket) in watchedWorkers where sockets[key]?.descriptor != socket.descriptor {
      poll.remove(socket.descriptor)
      watchedWorkers[key] = nil
    }
    for (key, socket) in sockets where watchedWorkers[key] != socket {
      let interest: EventPoll.Interest = socket.isWaitingToWrite ? [.readable, .writable] : .readable
      do {
        if watchedWorkers[key] == nil {
          try poll.add(socket.descriptor, token: WorkerTokens.base + key, interest: interest)
        } else {
          try poll.modify(socket.descriptor, token: WorkerTokens.base + key, interest: interest)
        }
      } catch  where error.code == EEXIST {
        try? poll.modify(socket.descriptor, token: WorkerTokens.base + key, interest: interest)
      } catch {
        Log.error("cannot watch a worker's socket: \(error)")
        continue
      }
      watchedWorkers[key] = socket
    }
  }

  /// Handles what the clients sent, and the requests of those that have
  /// room for answers again, until nothing more is waiting.
  private func handleClientEvents() {
    while isRunning && (server.hasEvents || !server.withRoom.isEmpty) {
      for event in server.takeEvents() where isRunning { handleClient(event) }
      for id in server.takeWithRoom() where isRunning {
        guard let client = clients[id], !client.connection.isClosing else { continue }
        handleDeferredRequests(of: client)
      }
    }
  }

  /// Handles one of a client's events: a request joins the open batch if it
  /// may reduce actions, and otherwise first commits it.
  private func handleClient(_ event: ConnectionServer.Event) {
    switch event {
    case .connected(let connection, let name):
      turn.makeDurable()
      clients.add(ConnectedClient(connection: connection, name: name))
      send(
        .welcome(
          protocol: ProtocolVersion.current, server: "\(App.name) \(App.version)", version: store.version,
          epoch: epoch), to: connection)
    case .disconnected(let connection):
      guard clients[connection.id] != nil else { return }
      clients.leaving.insert(connection.id)
      letLeavingClientsGo()
    case .message(let connection, let message):
      guard let client = clients[connection.id], !connection.isClosing else { return }
      guard mayHandleRequest(of: client) else { return postpone(event, of: client) }
      if case .send = message {} else { turn.makeDurable() }
      handle(message, from: client)
    case .invalid(let connection, let requestID, let error):
      guard let client = clients[connection.id], !connection.isClosing else { return }
      guard mayHandleRequest(of: client) else { return postpone(event, of: client) }
      turn.makeDurable()
      send(.error(id: requestID, code: error.code, message: error.message), to: connection)
    }
    afterReducing()
  }

  private func handle(_ message: ClientMessage, from client: ConnectedClient) {
    let connection = client.connection
    switch message {
    case .hello:
      send(.error(id: nil, code: .handshake, message: "'hello' may be sent only once"), to: connection)

    case .send(let id, let input, let wait):
      #if DEBUG
        stallIfAsked(input)
      #endif
      turn.send(input, id: id, wait: wait, from: client, notLeader: Self.notLeaderMessage)

    case .get(let id, let path, let version?) where version != store.version:
      history.requestState(client, id: id, path: path, at: version, current: store.version)

    case .get(let id, let path, _):
      switch publisher.value(at: path) {
      case .success(let value): send(.state(id: id, version: store.version, path: path, value: value), to: connection)
      case .failure(let error): send(.error(id: id, code: error.code, message: error.message), to: connection)
      }

    case .subscribe(let id, let path, let since, let clientEpoch):
      guard !history.isFollowing(connection.id) else {
        send(
          .error(
            id: id, code: .alreadySubscribed, message: "this connection follows the log; open another to subscribe"),
          to: connection)
        return
      }
      // A version from another epoch names another lineage: start afresh.
      let resumable = clientEpoch == nil || clientEpoch == epoch
      publisher.subscribe(client, id: id, path: path, since: since, resumable: resumable)

    case .actions(let id, let all):
      send(.actions(id: id, actions: turn.reader.access.listing(all: all)), to: connection)

    case .status(let id):
      send(.status(id: id, report: statusReport), to: connection)

    case .log(let id, let since, let last, let follow):
      // Every batch is committed before a request that does not reduce, so
      // the loop's version is durable and published.
      history.requestLog(client, id: id, since: since, last: last, follow: follow, through: store.version)

    case .whatIf(let id, let at, let edit):
      let replayEdit: ReplayEdit
      switch edit {
      case .without(let version):
        replayEdit = .remove(version: version)
      case .replace(let version, let input):
        do throws(MessageError) {
          // Any action, internal ones too: nothing is applied.
          replayEdit = .replace(version: version, action: try turn.reader.json(for: input))
        } catch {
          send(.error(id: id, code: error.code, message: error.message), to: connection)
          return
        }
      }
      history.requestWhatIf(
        client, id: id, at: at ?? store.version, edit: replayEdit, current: store.version,
        dependencies: store.dependencies)
    }
  }

  // MARK: Flow control

  /// Whether a request of `client` may be handled now: none of its earlier
  /// ones waits, no history read is answering one, and it has read its
  /// answers but for less than its buffer. A client that does not read its
  /// answers is not read either: its requests wait (and, once 64 do, its
  /// socket is not read) until it catches up.
  private func mayHandleRequest(of client: ConnectedClient) -> Bool {
    client.isDraining
      || (client.deferred.isEmpty && !client.historyPending && !client.connection.outbox.answersAreFull)
  }

  /// Keeps a request for later. Whatever made the client's requests wait
  /// (a history read, or unread answers) resumes them when it ends; once
  /// 64 wait, the client's socket is not read until they are handled.
  private func postpone(_ event: ConnectionServer.Event, of client: ConnectedClient) {
    client.deferred.append(event)
    if client.deferred.count >= Connection.creditLimit { server.pause(client.connection) }
    if !client.historyPending && client.connection.outbox.answersAreFull { waitForRoom(client) }
  }

  /// Handles the client's waiting requests, in order, while it may.
  private func handleDeferredRequests(of client: ConnectedClient) {
    let id = client.connection.id
    while !client.deferred.isEmpty, !client.historyPending, clients[id] === client {
      guard !client.connection.outbox.answersAreFull else { return waitForRoom(client) }
      client.isDraining = true
      handleClient(client.deferred.removeFirst())
      client.isDraining = false
    }
    if client.deferred.isEmpty && clients[id] === client { server.resume(client.connection) }
  }

  /// Asks the client's outbox to tell the loop once it has room again.
  private func waitForRoom(_ client: ConnectedClient) {
    let id = client.connection.id
    client.connection.outbox.whenRoom { [server] in server.noteRoom(id) }
  }

  /// Queues an answer (``Turn/answer(_:to:)``).
  private func send(_ message: ServerMessage, to connection: Connection) {
    turn.answer(message, to: connection)
  }
}
