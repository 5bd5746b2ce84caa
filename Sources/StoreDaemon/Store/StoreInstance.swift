import ComposableCore
import Platform
import Replication
import Wire

/// One store the daemon hosts, with everything that is its own: the state
/// and its versions, the epoch, the journal (``JournalCommitter``), the
/// subscribers and the recent diffs (``Publisher``), the log's readers
/// (``HistoryRequests``), the batch under way (``Turn``), the clients
/// bound to it (``ClientRegistry``) and the answers to their requests
/// (``ClientRequests``).
///
/// What it shares with the daemon's other parts is handed in: the effect
/// workers, the gate that holds frames while a batch syncs, and how the
/// history reader's thread posts to the loop. The loop (``StoreLoop``)
/// and the tests' in-memory harness build a store the same way, here.
/// Confined to the loop's thread.
final class StoreInstance<App: HostedApp> {
  /// The store's name; nil for the daemon's default store.
  let name: StoreName?
  /// The store's number among the loop's open stores (0, the default
  /// store's): its history's answers and its sync's token name it.
  let number: Int
  /// Holds the frames of the store's open batch in its clients' outboxes.
  let gate: HoldGate
  /// Names the lineage of versions: kept in the journal, so versions carry
  /// on across restarts; a new one only when recovery dropped damaged data.
  let epoch: String
  let store: Store<App.Root>
  /// The batch of actions under way, from reading to acknowledging.
  let turn: Turn<App>
  /// The answers to the clients' requests.
  let requests: ClientRequests<App>
  let publisher: Publisher
  let committer: JournalCommitter
  let history: HistoryRequests
  let clients: ClientRegistry
  /// What each action's reducer drew from the date, UUID and random number
  /// dependencies, journaled with it so that a replay reproduces it.
  private let inputs = InputRecorder()
  /// When a client last connected to or left the store, or an effect's
  /// reply last reached it: an idle store (``isIdle``) has been so since.
  var lastUsed = ContinuousClock.now

  /// Whether nothing holds the store open: no client is bound to it, no
  /// effect of its is in flight, and nothing it reduced waits to be made
  /// durable. Such a store can be closed and opened again from its journal
  /// as it was.
  var isIdle: Bool {
    clients.count == 0 && clients.leaving.isEmpty && store.inFlight.isEmpty && committer.batch == nil
      && committer.syncing == nil
  }

  /// The store `name` as `recovery` found it, its effects run by `workers`. With a
  /// `replica`, it follows the replicated log until it leads; `catchesUp`
  /// has its publisher wait for versions it has not reached, as a
  /// replicated store's must.
  init(
    name: StoreName? = nil, number: Int = 0, recovery: StateRecovery<App.Root.State>, options: DaemonOptions,
    workers: any EffectWorkers, replica: Replica?,
    catchesUp: Bool, gate: HoldGate, dependencies: DependencyValues,
    post: @escaping @Sendable (LoopCommand) -> Void
  ) throws {
    self.name = name
    self.number = number
    self.gate = gate
    epoch = recovery.epoch
    var changes = DiffHistory(capacity: options.retainedDiffs)
    for change in recovery.recentChanges { changes.append(change) }
    let schema = App.Root.Action.actionSchema
    let clients = ClientRegistry()
    self.clients = clients
    committer = try JournalCommitter(
      journal: recovery.journal, writer: recovery.writer, epoch: recovery.epoch, schema: recovery.schema,
      syncPolicy: options.syncPolicy, workers: workers, replica: replica)
    publisher = Publisher(
      document: recovery.document, version: recovery.version, history: changes, clients: clients, schema: schema,
      options: options, catchesUp: catchesUp)
    history = HistoryRequests(
      reader: HistoryReader(of: App.self, journal: recovery.journal, options: options), schema: schema,
      clients: clients, publisher: publisher, store: number, post: post)
    let root = App.makeRoot()
    store = Store(
      initialState: recovery.state, reducer: root, executor: committer, version: recovery.version,
      dependencies: dependencies.recordingInputs(into: inputs))
    turn = Turn(
      store: store, root: root, inputs: inputs,
      reader: ActionReader(schema: schema, allowsInternal: options.allowsInternalActions), publisher: publisher,
      committer: committer, history: history, workers: workers, clients: clients, gate: gate)
    requests = ClientRequests(
      turn: turn, publisher: publisher, history: history, clients: clients, epoch: recovery.epoch,
      notLeader: Self.notLeaderMessage)
  }

  /// Recovers the store `name` from its journal (``StateRecovery``), in
  /// this build's schema; a store never opened before starts from the
  /// app's initial state, its directory made.
  static func recover(options: DaemonOptions, name: StoreName? = nil) throws -> StateRecovery<App.Root.State> {
    let directory = StoreDirectories.directory(of: name, in: options.stateDirectory)
    if name != nil {
      try FileIO.makeDirectory(options.stateDirectory + "/" + StoreDirectories.stores)
      try FileIO.makeDirectory(directory)
    }
    return try StateRecovery.run(
      options: options, retained: options.retainedDiffs, initialState: App.initialState,
      schema: App.Root.Action.actionSchema, appSchema: App.schema, build: App.build, directory: directory)
  }

  /// The dependencies the reducers see from now on, their draws recorded
  /// with each action as before.
  func reconfigure(_ dependencies: DependencyValues) {
    store.dependencies = dependencies.recordingInputs(into: inputs)
  }

  /// After a crash or a change of leader, the features that were waiting on
  /// an effect are told that it is gone (``Turn/reduceRecoveryActions()``).
  func reduceRecoveryActionsIfNeeded() {
    let names = turn.reduceRecoveryActions()
    guard !names.isEmpty else { return }
    Log.warning(
      "effects were in flight when \(App.name) stopped; told their features up to version \(store.version): "
        + names.joined(separator: ", "))
  }

  /// What a standby tells a sender: why, for a person, and the leader, for
  /// the client to send to (nil while there is none).
  static func notLeaderMessage(_ replica: Replica) -> (message: String, leader: StoreLeader?) {
    let store = "the store '\(replica.options.storeID)'"
    guard let leader = replica.leader, leader.node != replica.me.node || leader.socket != replica.me.socket else {
      return (
        "the action was not applied: \(App.name) is a standby of \(store), which has no leader right now "
          + "(one takes over within the lease's \(replica.options.leaseTTL) s); send it again then", nil
      )
    }
    return (
      "the action was not applied: \(App.name) is a standby of \(store); send it to the leader, "
        + "\(leader.node), at \(leader.socket)" + (leader.address.map { " or at tcp://\($0)" } ?? ""),
      StoreLeader(node: leader.node, socket: leader.socket, address: leader.address)
    )
  }
}
