/// Runs a reducer: holds the state, reduces one action at a time in arrival
/// order, and hands the effects' I/O requests to an ``EffectExecutor``.
///
/// Actions an effect sends synchronously (``Effect/send(_:)``) are reduced
/// first-in first-out right after the current action, before anything sent
/// from outside; no action is ever reduced inside another, so chains of any
/// length use constant stack. Every reduced action produces a new ``version``.
///
/// A store is confined to one thread (the daemon's store loop, or a test): it
/// is not `Sendable`, and executors answer on that same thread, through
/// ``deliver(_:to:)`` (a test) or ``receive(_:for:)`` (the daemon, which then
/// reduces each waiting action with ``reduceNext(_:)`` and publishes it).
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
  /// Called after every reduced action with its version, the action and the
  /// new state.
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
  /// The actions effects sent, waiting to be reduced, and their origins,
  /// read from a moving head.
  private var queuedActions: [R.Action] = []
  private var queuedOrigins: [Origin] = []
  private var queueHead = 0
  private var isProcessing = false
  /// The effect of the action ``reduceRefusingDropped(_:origin:)`` or
  /// ``reduceNext(_:)`` reduced last, and its origin, started by the next
  /// ``reduceNext(_:)`` (plain fields, not an optional tuple).
  private var pendingEffect = Effect<R.Action>.none
  private var pendingOrigin: Origin = 0
  private var hasPendingEffect = false
  /// Whether ``reducingMany(_:)`` has bound ``dependencies`` and
  /// ``recorder`` to their task locals for the actions reduced in it.
  private var isBoundForMany = false
  /// The recorder bound by ``reducingMany(_:)``, armed only while an action
  /// whose dropping is refused is reduced.
  private let recorder = DroppedActionRecorder(isArmed: false)

  public init(
    initialState: R.State, reducer: R, executor: any EffectExecutor, version: UInt64 = 0,
    dependencies: DependencyValues = DependencyValues()
  ) {
    self.state = initialState
    self.reduce = reducer.makeReduce()
    self.version = version
    self.dependencies = dependencies
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

  /// The origin of the action being reduced, for ``didReduce`` observers.
  public private(set) var reducingOrigin: Origin = 0

  /// Reduces `action`, then every action its effects send synchronously, and
  /// returns the version `action` itself produced. `origin` tags the action and
  /// everything its effects lead to (see ``isSettled(origin:)``).
  @discardableResult
  public func send(_ action: R.Action, origin: Origin = 0) -> UInt64 {
    guard !isProcessing else {
      queuedActions.append(action)
      queuedOrigins.append(origin)
      return version + UInt64(queuedActions.count - queueHead)
    }
    // Reduced at once: the queue is only for what its effects send.
    isProcessing = true
    apply(action, origin: origin)
    return finishSend()
  }

  /// Reduces `action` as ``send(_:origin:)`` does, unless a reducer drops it
  /// (``DroppedAction``: what it addresses is absent, or it does not fit):
  /// then the state is put back as it was, no version is produced, no effect
  /// starts, and the reason is thrown. For actions from outside, whose
  /// sender should hear that the action went nowhere; actions that effects
  /// send are dropped and reported as in TCA.
  ///
  /// - Throws: ``DroppedAction``, naming what was missing.
  @discardableResult
  public func sendRefusingDropped(_ action: R.Action, origin: Origin = 0) throws(DroppedAction) -> UInt64 {
    guard !isProcessing else { return send(action, origin: origin) }
    isProcessing = true
    let effect: Effect<R.Action>
    do throws(DroppedAction) {
      effect = try reducedRefusingDropped(action)
    } catch {
      isProcessing = false
      throw error
    }
    publish(action, effect: effect, origin: origin)
    return finishSend()
  }

  // MARK: One action at a time

  /// Reduces `action` as ``sendRefusingDropped(_:origin:)`` does, and returns
  /// the version it produced, without telling ``didReduce``: the caller
  /// publishes it with what it knows of it (who sent it, how it was
  /// written), ``state`` being the state after it. Its effect starts, and
  /// what its effects send is reduced, as the caller calls ``reduceNext(_:)``,
  /// which it must do until that returns `false` before it sends or delivers
  /// anything else.
  ///
  /// - Throws: ``DroppedAction``, naming what was missing.
  public func reduceRefusingDropped(_ action: R.Action, origin: Origin) throws(DroppedAction) -> UInt64 {
    // invariant: the host's own driving of the store (one thread, one step at a time), not input
    precondition(
      !isProcessing && !hasPendingEffect, "reduceRefusingDropped(_:origin:) before reduceNext(_:) returned false")
    let effect = try reducedRefusingDropped(action)
    version += 1
    reducingOrigin = origin
    (pendingEffect, pendingOrigin, hasPendingEffect) = (effect, origin, true)
    return version
  }

  /// Takes in a worker's reply to the request `id`: the action it maps to
  /// waits for ``reduceNext(_:)``. Replies to cancelled requests are dropped.
  public func receive(_ reply: EffectReply, for id: EffectID) {
    // invariant: the host's own driving of the store (one thread, one step at a time), not input
    precondition(!isProcessing, "receive(_:for:) while reducing")
    runtime.deliver(reply, to: id)
  }

  /// Starts the effect of the action reduced last, then reduces the next
  /// action waiting (one an effect sent, or a reply mapped to) and hands
  /// `reduced` the version it produced, the action and its origin (that of
  /// the action from outside it follows from), ``state`` being the state
  /// after it. Returns `false`, calling nothing, once none waits. Nothing
  /// is handed to ``didReduce``.
  public func reduceNext(_ reduced: (_ version: UInt64, _ action: R.Action, _ origin: Origin) -> Void) -> Bool {
    // invariant: the host's own driving of the store (one thread, one step at a time), not input
    precondition(!isProcessing, "reduceNext(_:) while reducing")
    if hasPendingEffect {
      hasPendingEffect = false
      let effect = pendingEffect
      pendingEffect = .none
      runtime.run(effect, origin: pendingOrigin)
    }
    guard hasQueued() else { return false }
    let action = queuedActions[queueHead]
    let origin = queuedOrigins[queueHead]
    dropQueuedHead()
    let effect = self.reduced(action)
    version += 1
    reducingOrigin = origin
    (pendingEffect, pendingOrigin, hasPendingEffect) = (effect, origin, true)
    reduced(version, action, origin)
    return true
  }

  /// Ends a send whose action was published: reduces what its effects sent
  /// meanwhile; returns the version the action itself produced.
  private func finishSend() -> UInt64 {
    isProcessing = false
    let produced = version
    drain()
    return produced
  }

  /// Delivers a worker's reply to the request `id` and reduces the action it
  /// maps to (and what follows from it). Replies to cancelled requests are
  /// dropped.
  public func deliver(_ reply: EffectReply, to id: EffectID) {
    runtime.deliver(reply, to: id)
    drain()
  }

  /// Cancels the request `id` in flight, as if its feature had cancelled it:
  /// the executor is told, and what waited for the request moves on.
  public func cancel(request id: EffectID) {
    runtime.cancel(request: id)
    drain()
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
    precondition(!isProcessing && !hasPendingEffect, "restore(state:version:) while reducing")
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

  /// Reduces the queued actions, first in first out, including those their
  /// own effects send meanwhile.
  private func drain() {
    guard !isProcessing, queueHead < queuedActions.count else { return }
    isProcessing = true
    defer { isProcessing = false }
    while hasQueued() {
      let action = queuedActions[queueHead]
      let origin = queuedOrigins[queueHead]
      dropQueuedHead()
      apply(action, origin: origin)
    }
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

  /// Reduces one action, publishes the new version and starts its effects.
  private func apply(_ action: R.Action, origin: Origin) {
    publish(action, effect: reduced(action), origin: origin)
  }

  /// Whether the bindings of ``reducingMany(_:)`` are in force: made, and
  /// not covered by another's inside it (the recorder bound with them is
  /// still the current one).
  private var isBoundMost: Bool {
    isBoundForMany && DroppedActionRecorder.current === recorder
  }

  /// Runs the reducer for `action` unless it drops it (then the state is
  /// put back and the reason thrown); returns its effect.
  private func reducedRefusingDropped(_ action: R.Action) throws(DroppedAction) -> Effect<R.Action> {
    let before = state
    let effect: Effect<R.Action>
    let dropped: DroppedAction?
    if isBoundMost {
      recorder.arm()
      effect = reduced(action)
      dropped = recorder.disarm()
    } else {
      let recorder = DroppedActionRecorder()
      effect = DroppedActionRecorder.$current.withValue(recorder) { reduced(action) }
      dropped = recorder.first
    }
    if let dropped {
      state = before
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

  /// Counts the version `action` produced, tells the observer, and starts
  /// the action's effect.
  private func publish(_ action: R.Action, effect: Effect<R.Action>, origin: Origin) {
    version += 1
    reducingOrigin = origin
    didReduce?(version, action, state)
    runtime.run(effect, origin: origin)
  }
}
