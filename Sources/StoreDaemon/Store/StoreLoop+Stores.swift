import Platform
import Wire

/// The stores the loop has open: the default store, always, and the named
/// ones, each opened by its first client's `hello` and closed when it has
/// been idle (``StoreInstance/isIdle``) for `--store-idle-timeout`, or
/// sooner when `--max-stores` are open and another is asked for (the one
/// idle longest goes). A closed store is opened again from its journal as
/// it was, as a start opens it. Runs on the store loop's thread only.
extension StoreLoop {
  /// The store numbered `number`: 0 for the default store, N for
  /// `named[N - 1]`; nil for a number no open store has.
  func store(numbered number: Int) -> StoreInstance<App>? {
    if number == 0 { return hosted }
    return number > 0 && number <= named.count ? named[number - 1] : nil
  }

  /// Runs `body` for every open store, the default one first.
  func forEachStore(_ body: (StoreInstance<App>) -> Void) {
    body(hosted)
    if storeCount > 1 { for case let instance? in named { body(instance) } }
  }

  /// Connects a store just made to the loop: its sync's signal to the
  /// poll, its status and its view of whether the loop is idle.
  func wire(_ instance: StoreInstance<App>) throws(SystemFailure) {
    if let syncDone = instance.committer.syncDone {
      try poll.add(syncDone, token: JournalSyncThread.token(forStore: instance.number), interest: .readable)
    }
    instance.requests.status = { [unowned self, unowned instance] in statusReport(of: instance) }
    instance.requests.storesQuery = { [unowned self] after, limit in storesQuery(after: after, limit: limit) }
    instance.turn.loopIsIdle = { [unowned self] in hasNothingElseToDo() }
  }

  /// The store a `hello` names, opened from its journal if it is not open
  /// yet: the default store for nil.
  func openStore(_ name: StoreName?) throws(StoreOpenError) -> StoreInstance<App> {
    guard let name else { return hosted }
    if let number = storeNumbers[name], let instance = store(numbered: number) { return instance }
    guard options.replication == nil else {
      throw StoreOpenError(
        "this daemon replicates its default store through etcd (--replicate) and serves no named store; "
          + "connect without a store name")
    }
    guard options.maximumStores > 0 else {
      throw StoreOpenError("this daemon serves no named store (--max-stores 0); connect without a store name")
    }
    guard storeCount - 1 < options.maximumStores || closeStoreIdleLongest() else {
      throw StoreOpenError(
        "the store '\(name)' is not open, and the \(storeCount - 1) named stores that are, the most this daemon "
          + "opens (--max-stores \(options.maximumStores)), are all in use (a client or an effect each); "
          + "try again once one is idle")
    }
    let number = freeNumbers.popLast() ?? named.count + 1
    let instance: StoreInstance<App>
    do {
      let recovery = try StoreInstance<App>.recover(options: options, name: name)
      let inbox = inbox
      instance = try StoreInstance(
        name: name, number: number, recovery: recovery, options: options,
        workers: effects.workers(for: number, name: name),
        replica: nil, catchesUp: false, gate: HoldGate(), dependencies: dependencies,
        post: { command in inbox.post(command) })
      do {
        try wire(instance)
      } catch {
        // Its journal is open and, under `--fsync always`, its sync thread
        // runs: both end with it.
        try? instance.committer.close()
        throw error
      }
    } catch {
      effects.release(store: number)
      freeNumbers.append(number)
      Log.error("cannot open the store '\(name)': \(error)")
      throw StoreOpenError("the store '\(name)' cannot be opened: \(error)")
    }
    if number > named.count { named.append(instance) } else { named[number - 1] = instance }
    storeNumbers[name] = number
    Log.info("opened the store '\(name)' at version \(instance.store.version)")
    instance.reduceRecoveryActionsIfNeeded()
    return instance
  }

  /// What a `stores` request reads off the loop's thread: the state
  /// directory, and the open stores' versions and clients now.
  private func storesQuery(after: StoreName?, limit: Int) -> StoreCatalog.Query {
    var open: [StoreName?: StoreCatalog.OpenStore] = [:]
    forEachStore { instance in
      open[instance.name] = StoreCatalog.OpenStore(version: instance.store.version, clients: instance.clients.count)
    }
    return StoreCatalog.Query(stateDirectory: options.stateDirectory, after: after, limit: limit, open: open)
  }

  /// Closes the named stores idle for `--store-idle-timeout`, looking at
  /// most twice in that time and at least once a second.
  func closeIdleStores() {
    guard storeCount > 1 else { return }
    let now = ContinuousClock.now
    guard now >= nextIdleSweep else { return }
    let timeout = options.storeIdleTimeout
    nextIdleSweep = now + min(max(timeout / 2, .milliseconds(50)), .seconds(1))
    for case let instance? in named where now - instance.lastUsed >= timeout && isIdle(instance) {
      close(instance, why: "idle for \(timeout) (--store-idle-timeout)")
    }
  }

  /// Closes the idle named store used least recently, to make room for
  /// another; false if every open one is in use.
  private func closeStoreIdleLongest() -> Bool {
    var longest: StoreInstance<App>?
    for case let instance? in named where isIdle(instance) {
      if longest.map({ instance.lastUsed < $0.lastUsed }) ?? true { longest = instance }
    }
    guard let longest else { return false }
    close(longest, why: "the store idle longest, for another (--max-stores \(options.maximumStores))")
    return true
  }

  /// Whether nothing holds the store open, its effects counted over every
  /// store's view of the workers.
  private func isIdle(_ instance: StoreInstance<App>) -> Bool {
    instance.isIdle && !effects.hasWork(forStore: instance.number)
  }

  /// Closes an idle named store: its journal, and its sync thread under
  /// `--fsync always`; its memory goes with the last reference, and its
  /// number is the next store's.
  private func close(_ instance: StoreInstance<App>, why: String) {
    guard let name = instance.name else { return }
    if let syncDone = instance.committer.syncDone { poll.remove(syncDone) }
    do {
      try instance.committer.close()
    } catch {
      Log.error("closing the journal of the store '\(name)': \(error)")
    }
    closedFigures.add(instance)
    let number = instance.number
    effects.release(store: number)
    named[number - 1] = nil
    freeNumbers.append(number)
    storeNumbers[name] = nil
    Log.info("closed the store '\(name)' at version \(instance.store.version): \(why)")
  }
}

/// Why a store a `hello` named cannot be served.
struct StoreOpenError: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}
