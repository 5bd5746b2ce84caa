/// Runs a reducer: holds the state, reduces one action at a time in arrival
/// order, and hands the effects' I/O requests to an ``EffectExecutor``.
///
/// A store is stepped one way, by the daemon, ``TestStore`` and replay alike:
/// ``reduce(_:origin:)`` (or ``reduceRefusingDropped(_:origin:)``) reduces
/// an action from outside, ``receive(_:for:)`` takes in a worker's reply and
/// ``cancel(request:)`` stops a request; then ``reduceNext(_:)``, called
/// until it returns `false`, starts the effect of the action reduced last and
/// reduces the next action waiting, one per call, each a version of its own
/// that the caller sees. Actions an effect sends synchronously
/// (``Effect/send(_:)``) are reduced first-in first-out, before anything sent
/// from outside; no action is ever reduced inside another, so chains of any
/// length use constant stack. ``send(_:origin:)`` and ``deliver(_:to:)`` are
/// those steps run to the end, telling ``didReduce`` of each version.
///
/// A store is confined to one thread (the daemon's store loop, or a test): it
/// is not `Sendable`, and executors answer on that same thread.
///
/// The daemon runs this code unspecialized, generic over the hosted app, where
/// every value of a generic type made from `R.Action` or `R.State` (an
/// optional, a tuple, a struct holding one) costs a lookup of its type's
/// metadata. So the per-action path holds only values of those types
/// themselves: the queue is two arrays, not an array of tuples, and
/// ``reduceNext(_:)`` hands its action to a closure rather than returning
/// an optional.
public final class Store<R: Reducer> {
  /// The current state.
  public private(set) var state: R.State
  /// How many actions have been reduced; grows by one per action.
  public private(set) var version: UInt64
  /// The dependencies every action is reduced with.
  public var dependencies: DependencyValues {
    // Bound for many actions, the old ones would stay in force: from now
    // on each action binds its own.
    didSet { isBoundForMany = false }
  }
  /// Called by ``send(_:origin:)``, ``sendRefusingDropped(_:origin:)`` and
  /// ``deliver(_:to:)`` after every action they reduce, with its version,
  /// the action and the new state. A host that steps the store itself sees
  /// each version as it steps.
  public var didReduce: ((_ version: UInt64, _ action: R.Action, _ state: R.State) -> Void)?

  /// Calls `body` with the state where it is, not a copy: a copy of a large
  /// root state retains each of its references, and releases them after.
  /// The daemon reads the state this way after every action.
  package func withState<Result>(_ body: (UnsafePointer<R.State>) throws -> Result) rethrows -> Result {
    try withUnsafePointer(to: &state) { try body($0) }
  }

  /// The reducer, its body built once (``Reducer/makeReduce()``).
  private let reduce: (inout R.State, R.Action) -> Effect<R.Action>
  private var runtime: EffectRuntime<R.Action>!
  /// Whether effects run: `false` for a replay, whose journal holds what
  /// the effects led to as versions of their own.
  private let runsEffects: Bool
  /// The actions effects sent, waiting to be reduced, and their origins,
  /// read from a moving head.
  private var queuedActions: [R.Action] = []
  private var queuedOrigins: [Origin] = []
  private var queueHead = 0
  /// Whether ``send(_:origin:)`` (or another step run to the end) is under
  /// way: a send from its ``didReduce`` joins the queue.
  private var isRunningSteps = false
  /// The effect of the action reduced last, and its origin, started by the
  /// next ``reduceNext(_:)`` (plain fields, not an optional tuple).
  private var pendingEffect = Effect<R.Action>.none
  private var pendingOrigin: Origin = 0
  private var hasPendingEffect = false
  /// Whether ``reducingMany(_:)`` has bound ``dependencies`` and
  /// ``recorder`` to their task locals for the actions reduced in it.
  private var isBoundForMany = false
  /// The recorder bound by ``reducingMany(_:)``, armed only while an action
  /// whose dropping is refused is reduced.
  private let recorder = DroppedActionRecorder(isArmed: false)

  /// Creates a store at `version` with `initialState`, whose effects'
  /// requests go to `executor`.
  public convenience init(
    initialState: R.State, reducer: R, executor: any EffectExecutor, version: UInt64 = 0,
    dependencies: DependencyValues = DependencyValues()
  ) {
    self.init(
      initialState: initialState, reducer: reducer, executor: executor, version: version,
      dependencies: dependencies, runsEffects: true)
  }

  /// Creates a replay's store: it steps as any other, but effects are
  /// neither started nor followed, since the journal holds what they led to
  /// as versions of their own.
  public convenience init(replaying initialState: R.State, reducer: R, dependencies: DependencyValues) {
    self.init(
      initialState: initialState, reducer: reducer, executor: NoEffects(), version: 0, dependencies: dependencies,
      runsEffects: false)
  }

  private init(
    initialState: R.State, reducer: R, executor: any EffectExecutor, version: UInt64,
    dependencies: DependencyValues, runsEffects: Bool
  ) {
    self.state = initialState
    self.reduce = reducer.makeReduce()
    self.version = version
    self.dependencies = dependencies
    self.runsEffects = runsEffects
    self.runtime = EffectRuntime(executor: executor) { [unowned self] action, origin in
      self.queuedActions.append(action)
      self.queuedOrigins.append(origin)
    }
  }

  /// Runs `body`, in which this store may reduce many actions, with its
  /// dependencies and its dropped-action recorder bound to their task locals
  /// once for all of them rather than once per action: each binding costs
  /// an allocation and generic calls, a few percent of what a small action
  /// costs the daemon, which reduces what arrived in one pass. Within
  /// `body`, ``dependencies`` changed take effect at once (the actions after
  /// the change bind their own). Bindings made inside `body` (another
  /// store's run, `collectingDroppedAction`) are innermost for what they
  /// wrap, and this store then binds its own for each action there.
  public func reducingMany<T>(_ body: () throws -> T) rethrows -> T {
    guard !isBoundForMany else { return try body() }
    return try DependencyValues.$current.withValue(dependencies) {
      try DroppedActionRecorder.$current.withValue(recorder) {
        isBoundForMany = true
        defer { isBoundForMany = false }
        return try body()
      }
    }
  }

  /// The origin of the action reduced last.
  public private(set) var reducingOrigin: Origin = 0

  // MARK: Stepping

  /// Reduces `action`, sent from outside with `origin`, and returns the
  /// version it produced, ``state`` being the state after it. A reducer
  /// that drops it reports that, as in TCA, and the version counts. Its
  /// effect starts, and what follows from it is reduced, as the caller
  /// calls ``reduceNext(_:)``, which it must do until that returns `false`
  /// before it steps the store otherwise. `origin` tags the action and
  /// everything its effects lead to (see ``isSettled(origin:)``).
  @discardableResult
  public func reduce(_ action: R.Action, origin: Origin = 0) -> UInt64 {
    checkNoStepUnderWay("reduce(_:origin:)")
    let effect = reduced(action)
    return produced(effect, origin: origin)
  }

  /// Reduces `action` as ``reduce(_:origin:)`` does, unless a reducer drops
  /// it (``DroppedAction``: what it addresses is absent, or it does not
  /// fit): then the state is put back as it was, no version is produced, no
  /// effect starts, and the reason is thrown. For actions from outside,
  /// whose sender should hear that the action went nowhere; actions that
  /// effects send are dropped and reported as in TCA.
  ///
  /// The state is put back from a copy taken before the reducers run,
  /// unless the caller keeps the state as it was before the action itself
  /// and gives `putBack`, which sets it: the daemon keeps the last state it
  /// published, so that an action costs no copy of the root state, which
  /// retains each of its references.
  ///
  /// - Throws: ``DroppedAction``, naming what was missing.
  public func reduceRefusingDropped(
    _ action: R.Action, origin: Origin, putBack: ((inout R.State) -> Void)? = nil
  ) throws(DroppedAction) -> UInt64 {
    checkNoStepUnderWay("reduceRefusingDropped(_:origin:)")
    let effect = try reducedRefusingDropped(action, putBack: putBack)
    return produced(effect, origin: origin)
  }

  /// Takes in a worker's reply to the request `id`: the action it maps to
  /// waits for ``reduceNext(_:)``. Replies to cancelled requests are dropped.
  public func receive(_ reply: EffectReply, for id: EffectID) {
    checkNoStepUnderWay("receive(_:for:)")
    runtime.deliver(reply, to: id)
  }

  /// Cancels the request `id` in flight, as if its feature had cancelled it:
  /// the executor is told, and what waited for the request waits for
  /// ``reduceNext(_:)``.
  public func cancel(request id: EffectID) {
    checkNoStepUnderWay("cancel(request:)")
    runtime.cancel(request: id)
  }

  /// Starts the effect of the action reduced last, then reduces the next
  /// action waiting (one an effect sent, or a reply mapped to) and hands
  /// `reduced` the version it produced, the action and its origin (that of
  /// the action from outside it follows from), ``state`` being the state
  /// after it. Returns `false`, calling nothing, once none waits.
  public func reduceNext(_ reduced: (_ version: UInt64, _ action: R.Action, _ origin: Origin) -> Void) -> Bool {
    if hasPendingEffect {
      hasPendingEffect = false
      let effect = pendingEffect
      pendingEffect = .none
      if runsEffects { runtime.run(effect, origin: pendingOrigin) }
    }
    guard hasQueued() else { return false }
    let action = queuedActions[queueHead]
    let origin = queuedOrigins[queueHead]
    dropQueuedHead()
    let effect = self.reduced(action)
    reduced(produced(effect, origin: origin), action, origin)
    return true
  }

  /// Counts the version an action produced; its effect waits for
  /// ``reduceNext(_:)``.
  private func produced(_ effect: Effect<R.Action>, origin: Origin) -> UInt64 {
    version += 1
    reducingOrigin = origin
    (pendingEffect, pendingOrigin, hasPendingEffect) = (effect, origin, true)
    return version
  }

  private func checkNoStepUnderWay(_ step: String) {
    // invariant: the host's own driving of the store (one thread, one step at a time), not input
    precondition(!hasPendingEffect, "\(step) before reduceNext(_:) returned false")
  }

  // MARK: Steps run to the end

  /// Reduces `action`, then every action its effects send synchronously,
  /// telling ``didReduce`` of each, and returns the version `action` itself
  /// produced. Sent from ``didReduce``, it joins the queue, and the version
  /// it will produce is returned.
  @discardableResult
  public func send(_ action: R.Action, origin: Origin = 0) -> UInt64 {
    guard !isRunningSteps else { return queue(action, origin: origin) }
    return runToTheEnd(action, reduce(action, origin: origin))
  }

  /// Reduces `action` as ``send(_:origin:)`` does, unless a reducer drops
  /// it: see ``reduceRefusingDropped(_:origin:)``.
  ///
  /// - Throws: ``DroppedAction``, naming what was missing.
  @discardableResult
  public func sendRefusingDropped(_ action: R.Action, origin: Origin = 0) throws(DroppedAction) -> UInt64 {
    guard !isRunningSteps else { return queue(action, origin: origin) }
    return runToTheEnd(action, try reduceRefusingDropped(action, origin: origin))
  }

  /// Delivers a worker's reply to the request `id` and reduces the action it
  /// maps to (and what follows from it), telling ``didReduce``. Replies to
  /// cancelled requests are dropped.
  public func deliver(_ reply: EffectReply, to id: EffectID) {
    receive(reply, for: id)
    runToTheEnd()
  }

  private func queue(_ action: R.Action, origin: Origin) -> UInt64 {
    queuedActions.append(action)
    queuedOrigins.append(origin)
    return version + UInt64(queuedActions.count - queueHead)
  }

  /// Tells ``didReduce`` of the version `action` produced, then steps until
  /// nothing waits; returns `version`.
  @discardableResult
  private func runToTheEnd(_ action: R.Action, _ version: UInt64) -> UInt64 {
    isRunningSteps = true
    didReduce?(version, action, state)
    runToTheEnd()
    return version
  }

  private func runToTheEnd() {
    isRunningSteps = true
    defer { isRunningSteps = false }
    while reduceNext({ version, action, _ in didReduce?(version, action, state) }) {}
  }

  /// The id the next request will get. Ids only grow, so the requests started
  /// after reading this are exactly those with this id or a larger one.
  public var nextRequestID: EffectID { runtime.nextRequestID }

  /// Puts the state and version back to what they were before actions the host
  /// could not keep (its journal refused them), and forgets the requests those
  /// actions started, which the host must not have carried out. Requests they
  /// cancelled stay cancelled.
  public func restore(state: R.State, version: UInt64, forgettingRequestsFrom firstID: EffectID) {
    // invariant: the host's own driving of the store (one thread, one step at a time), not input
    precondition(!hasPendingEffect, "restore(state:version:) while reducing")
    self.state = state
    self.version = version
    runtime.forget(runtime.inFlight.map(\.id).filter { $0 >= firstID })
  }

  /// The requests in flight, oldest first.
  public var inFlight: [InFlightRequest] { runtime.inFlight }

  /// Whether nothing that followed from the actions sent with `origin` is still
  /// running: no request of theirs in flight (the queue is always drained
  /// between calls).
  public func isSettled(origin: Origin) -> Bool {
    runtime.inFlightCount(origin: origin) == 0
  }

  /// Whether an action is queued; empties the queue when none is left.
  private func hasQueued() -> Bool {
    guard queueHead < queuedActions.count else {
      if queueHead > 0 {
        queuedActions.removeAll(keepingCapacity: true)
        queuedOrigins.removeAll(keepingCapacity: true)
        queueHead = 0
      }
      return false
    }
    return true
  }

  /// Moves past the oldest queued action, just read. The queue is read from
  /// a moving head, and its front is dropped only once it is most of the
  /// arrays, so a long chain of sends costs no more than it queues.
  private func dropQueuedHead() {
    queueHead += 1
    if queueHead > 1024 && queueHead * 2 > queuedActions.count {
      queuedActions.removeFirst(queueHead)
      queuedOrigins.removeFirst(queueHead)
      queueHead = 0
    }
  }

  /// Whether the bindings of ``reducingMany(_:)`` are in force: made, and
  /// not covered by another's inside it (the recorder bound with them is
  /// still the current one).
  private var isBoundMost: Bool {
    isBoundForMany && DroppedActionRecorder.current === recorder
  }

  /// Runs the reducer for `action` unless it drops it (then the state is
  /// put back and the reason thrown); returns its effect.
  private func reducedRefusingDropped(
    _ action: R.Action, putBack: ((inout R.State) -> Void)?
  ) throws(DroppedAction) -> Effect<R.Action> {
    // No optional of the state: unspecialized, it would cost a lookup of
    // its type's metadata per action.
    guard let putBack else {
      let before = state
      return try reducedRefusingDropped(action) { $0 = before }
    }
    let effect: Effect<R.Action>
    let dropped: DroppedAction?
    if isBoundMost {
      recorder.arm()
      effect = reduce(&state, action)
      dropped = recorder.disarm()
    } else {
      let recorder = DroppedActionRecorder()
      effect = DroppedActionRecorder.$current.withValue(recorder) { reduced(action) }
      dropped = recorder.first
    }
    if let dropped {
      putBack(&state)
      throw dropped
    }
    return effect
  }

  /// Runs the reducer on the state for `action`; returns its effect.
  private func reduced(_ action: R.Action) -> Effect<R.Action> {
    if isBoundMost { return reduce(&state, action) }
    return DependencyValues.$current.withValue(dependencies) {
      reduce(&state, action)
    }
  }
}

/// The executor of a replay's store, which runs no effect.
private final class NoEffects: EffectExecutor {
  func start(_ request: EffectRequest, id: EffectID) {}
  func cancel(_ id: EffectID) {}
}
