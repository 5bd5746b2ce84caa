import ComposableCore
import JSON
import Platform
import Replication
import Wire

/// The daemon's event loop, the one thread that touches the state: every
/// action, from every client and every effect, is reduced on it, one at a
/// time, in arrival order.
///
/// Other threads only ``post(_:)`` commands; the loop's own thread runs
/// ``run()``: it waits on the inbox, the clients' and the workers' sockets
/// and the journal's sync, hands each what arrived, and says when to
/// commit. The owners it wires: the store it hosts (``StoreInstance``:
/// the batch under way, ``Turn``, with the fan-out of diffs,
/// ``Publisher``, the journal, ``JournalCommitter``, the clients and their
/// requests, the history reads), flow control (``RequestFlow``), the
/// clients' sockets (``ConnectionServer``), the worker processes
/// (``WorkerSupervisor``) and systemd's view (``ServiceReporter``). It
/// never blocks on a client: answers go to each connection's bounded
/// ``Outbox``, and a subscriber that cannot keep up is resynchronised or
/// disconnected.
final class StoreLoop<App: HostedApp>: @unchecked Sendable {
  // Safe: `inbox` is thread-safe (a Mutex and an eventfd); every other
  // stored property is read and written only by the thread running `run()`
  // (made in `init`, on the thread that then starts that one).

  /// How many rounds of failing what failures started a stop allows.
  static var shutdownRounds: Int { 64 }

  let inbox: Inbox<LoopCommand>
  let options: DaemonOptions
  let startedAt = ContinuousClock.now
  /// The daemon's default store, which a `hello` naming no store is for.
  let hosted: StoreInstance<App>
  /// The named stores open, by number: the store numbered N is
  /// `named[N - 1]`, nil once closed, the default store being 0. A
  /// connection, an effect, a history answer and a sync name their store by
  /// its number (``store(numbered:)``); a closed store's number is the next
  /// store's to open. The default store is reached without this array,
  /// whose operations cost the loop's generic code a lookup of its type's
  /// metadata each time.
  var named: [StoreInstance<App>?] = []
  /// The numbers of closed stores, for the next stores to open.
  var freeNumbers: [Int] = []
  /// The numbers of the named stores open, by name.
  var storeNumbers: [StoreName: Int] = [:]
  /// How many stores are open, the default one included.
  var storeCount: Int { storeNumbers.count + 1 }
  /// When the loop next looks for named stores idle long enough to close.
  var nextIdleSweep = ContinuousClock.now
  /// What the stores closed since the start had counted, for the metrics.
  var closedFigures = StoreFigures()
  /// The effect workers as the stores share them.
  let effects: SharedWorkers
  /// The dependencies the stores' reducers see.
  var dependencies: DependencyValues
  /// Which client's request is handled when.
  private let flow: RequestFlow
  /// What the loop waits on: the inbox's wake signal, the listener, every
  /// client's socket and every worker's.
  let poll: EventPoll
  /// The clients' sockets: accepting, reading, writing, deadlines.
  let server: ConnectionServer
  /// The workers' sockets in the poll.
  var workerSockets = WorkerSockets()
  let supervisor: WorkerSupervisor
  let service: ServiceReporter
  private var waiter: LoopWaiter
  private var isRunning = true
  /// The longest the loop sleeps when idle.
  private var tick: Duration { .milliseconds(max(50, options.heartbeatInterval.wholeMilliseconds / 2)) }

  // The default store's parts the loop's extensions read most.
  var store: Store<App.Root> { hosted.store }
  var turn: Turn<App> { hosted.turn }
  var publisher: Publisher { hosted.publisher }
  var committer: JournalCommitter { hosted.committer }
  var clients: ClientRegistry { hosted.clients }
  var epoch: String { hosted.epoch }

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
      try StoreInstance<App>.recover(options: options)
    }
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
        epoch: recovery.epoch, storeWasInEtcd: storeWasInEtcd,
        post: { command in inbox.post(command) })
    }
    self.dependencies = dependencies
    effects = SharedWorkers(supervisor)
    hosted = try StoreInstance(
      recovery: recovery, options: options, workers: effects.workers(for: 0), replica: replica,
      catchesUp: replica != nil, gate: server.gate, dependencies: dependencies,
      post: { command in inbox.post(command) })
    flow = RequestFlow(server: server)
    try wire(hosted)
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
      hosted.reduceRecoveryActionsIfNeeded()
    }
    while isRunning {
      workerSockets.update(from: supervisor, in: poll)
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
      if WorkerSockets.isWorker(event.token) {
        guard let descriptor = workerSockets.descriptor(for: event.token) else { continue }
        if event.isWritable { workersWritable.append(descriptor) }
        if event.isReadable || event.isHungUp { workersReady.append(descriptor) }
      } else if let number = JournalSyncThread.store(of: event.token) {
        guard let turn = store(numbered: number)?.turn else { continue }
        if let outcome = turn.committer.takeSyncOutcome() { turn.settle(outcome) }
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
      // What the workers answered goes to the store in one hand-over.
      for (reply, id) in supervisor.read(workersReady) where isRunning { deliver(reply, to: id) }
    }
    commitAll()
    server.enforceDeadlines()
    handleClientEvents()
    guard isRunning else { return }
    supervisor.tick()
    forEachStore { instance in
      instance.turn.deliverWorkerReplies()
      instance.turn.reportSettledWaits()
      if !instance.clients.leaving.isEmpty { instance.requests.letLeavingClientsGo() }
    }
    commitAll()
    // What the commit released may have made room for deferred requests.
    handleClientEvents()
    commitAll()
    forEachStore { instance in
      guard instance.publisher.heartbeatsAreDue else { return }
      instance.turn.holdFramesWhileSyncing()
      instance.publisher.sendHeartbeats()
    }
    closeIdleStores()
    service.report(
      isSettled: { supervisor.allSettled }, alerts: { alerts }, status: { statusLine })
  }

  /// Closes every store's open batch, for its journal to make it durable.
  private func commitAll() {
    forEachStore { $0.turn.commit() }
  }

  /// Handles one command: it joins the default store's open batch if it may
  /// reduce actions, and otherwise, unless it only observes, first waits
  /// until every store's is durable.
  private func perform(_ command: LoopCommand) {
    if command.reduces {
      turn.open()
    } else if !command.onlyObserves {
      forEachStore { $0.turn.makeDurable() }
    }
    handle(command)
    forEachStore { afterReducing($0) }
  }

  /// Reduces the action a worker's reply maps to, in its store's open batch.
  private func deliver(_ reply: EffectReply, to id: EffectID) {
    guard let (number, local) = effects.route(reply, to: id), let instance = store(numbered: number) else { return }
    instance.lastUsed = .now
    instance.turn.deliver(reply, to: local)
    afterReducing(instance)
  }

  /// What follows every command: the failures the supervisor made up are
  /// reduced, waiting senders whose effects are done are told, and clients
  /// that left are let go.
  private func afterReducing(_ instance: StoreInstance<App>) {
    instance.turn.deliverWorkerReplies()
    instance.turn.reportSettledWaits()
    if !instance.clients.leaving.isEmpty { instance.requests.letLeavingClientsGo() }
    service.pingWatchdogIfDue()
  }

  /// Whether no client, worker or command waits for the loop. The poll is
  /// level-triggered: the sockets it finds ready stay ready until read, so
  /// the next turn of the loop finds them again.
  func hasNothingElseToDo() -> Bool {
    guard !server.hasEvents, server.withRoom.isEmpty, !inbox.hasCommands else { return false }
    return !poll.wait(milliseconds: 0).contains { $0.token != LoopWaiter.wakeToken } && !inbox.hasCommands
  }

  // MARK: Commands

  private func handle(_ command: LoopCommand) {
    switch command {
    case .history(let number, let connectionID, let requestID, let result):
      guard let instance = store(numbered: number) else { return }
      if let client = instance.history.finish(connectionID: connectionID, requestID: requestID, result) {
        flow.handleDeferred(of: client, in: instance.clients) { handleClient($0) }
      }
    case .reconfigure(let dependencies, let done):
      if let dependencies {
        self.dependencies = dependencies
        forEachStore { $0.reconfigure(dependencies) }
      }
      if service.readySent { service.notifier.notify(["READY=1"]) }
      done()
    case .worker(let kind, let generation, let report):
      supervisor.handle(report, kind: kind, generation: generation)
    case .replicated(let records):
      hosted.applyReplicated(records)
    case .takeOver:
      if hosted.takeOver() {
        supervisor.startAll()
        hosted.reduceRecoveryActionsIfNeeded()
      }
    case .replicaBase(let reply):
      reply(
        Replica.Compaction(
          version: publisher.version, state: CanonicalJSON.encode(publisher.document), schema: committer.schema))
    case .metrics(let reply):
      reply(metricsExposition)
    case .shutdown(let done):
      stop()
      isRunning = false
      done()
    }
  }

  // MARK: The event loop

  /// Handles what the clients sent, and the requests of those that have
  /// room for answers again, until nothing more is waiting.
  private func handleClientEvents() {
    while isRunning && (server.hasEvents || !server.withRoom.isEmpty) {
      // The events that wait now; those they cause wait for the next round.
      var waiting = server.eventCount
      while isRunning && waiting > 0, let event = server.nextEvent() {
        waiting -= 1
        handleClient(event)
      }
      for id in server.takeWithRoom() where isRunning {
        guard let connection = server.connections[id], let instance = store(numbered: connection.store) else {
          continue
        }
        guard let client = instance.clients[id], !client.connection.isClosing else { continue }
        flow.handleDeferred(of: client, in: instance.clients) { handleClient($0) }
      }
    }
  }

  /// Handles one of a client's events: a request joins the open batch if it
  /// may reduce actions, and otherwise first commits it.
  private func handleClient(_ event: consuming ConnectionServer.Event) {
    switch consume event {
    case .connected(let connection, let name, let storeName):
      let instance: StoreInstance<App>
      do throws(StoreOpenError) {
        instance = try openStore(storeName)
      } catch {
        server.closeWithError(connection, id: nil, .invalidStore, error.message)
        return
      }
      connection.store = instance.number
      connection.outbox.gate = instance.gate
      instance.lastUsed = .now
      instance.turn.makeDurable()
      instance.clients.add(ConnectedClient(connection: connection, name: name))
      instance.turn.answer(
        .welcome(
          protocol: ProtocolVersion.current, server: "\(App.name) \(App.version)", version: instance.store.version,
          epoch: instance.epoch, store: storeName), to: connection)
      afterReducing(instance)
    case .disconnected(let connection):
      guard let instance = store(numbered: connection.store), instance.clients[connection.id] != nil else { return }
      instance.lastUsed = .now
      instance.clients.leaving.insert(connection.id)
      instance.requests.letLeavingClientsGo()
      afterReducing(instance)
    case .message(let connection, let message):
      guard let instance = store(numbered: connection.store), let client = instance.clients[connection.id],
        !connection.isClosing
      else { return }
      guard flow.mayHandle(client) else { return flow.postpone(.message(connection, message), of: client) }
      if case .send = message {} else { instance.turn.makeDurable() }
      instance.requests.answer(message, from: client)
      afterReducing(instance)
    case .invalid(let connection, let requestID, let error):
      guard let instance = store(numbered: connection.store), let client = instance.clients[connection.id],
        !connection.isClosing
      else { return }
      guard flow.mayHandle(client) else {
        return flow.postpone(.invalid(connection, requestID: requestID, error), of: client)
      }
      instance.turn.makeDurable()
      instance.turn.answer(.error(id: requestID, code: error.code, message: error.message), to: connection)
      afterReducing(instance)
    }
  }
}
