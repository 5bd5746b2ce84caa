/// Interprets effect values: starts requests, tracks what is in flight, runs
/// concatenations in order and carries out cancellation.
///
/// Confined to its store's thread. Cancellation works on a tree of nodes: each
/// `cancellable` and each child scope opens a node, and a part of an effect is
/// cancelled when any node above it is. Cancelling a node stops its requests at
/// the executor and keeps the rest of its concatenations from starting.
///
/// What it keeps is not generic over `Action`: a request's reply mapping is
/// held as a closure that enqueues the mapped action, so that its
/// dictionaries have concrete key and value types the standard library's
/// specialized code serves, not types nested in the generic class.
final class EffectRuntime<Action: Sendable> {
  private let executor: any EffectExecutor
  private let enqueue: (Action, Origin) -> Void
  private let root = EffectNode(parent: nil)
  private var nextID: EffectID = 1
  private var running: [EffectID: RunningRequest] = [:]
  private var cancellables: [EffectCancelKey: [ObjectIdentifier: EffectNode]] = [:]
  private var scopes: [[ScopeComponent]: [ObjectIdentifier: EffectNode]] = [:]

  init(executor: any EffectExecutor, enqueue: @escaping (Action, Origin) -> Void) {
    self.executor = executor
    self.enqueue = enqueue
  }

  /// The requests in flight, oldest first.
  var inFlight: [InFlightRequest] {
    running.sorted { $0.key < $1.key }.map {
      InFlightRequest(id: $0.key, request: $0.value.request, scope: $0.value.scope)
    }
  }

  /// Starts an effect returned by the root reducer for an action of `origin`.
  func run(_ effect: Effect<Action>, origin: Origin) {
    run(effect, node: root, scope: [], origin: origin, onComplete: {})
  }

  /// How many requests of `origin` are in flight.
  func inFlightCount(origin: Origin) -> Int {
    running.values.reduce(0) { $0 + ($1.origin == origin ? 1 : 0) }
  }

  /// Delivers a worker's reply: maps it to an action (enqueued) and, if the
  /// request is over, continues what waited for it. Replies to cancelled or
  /// unknown requests are dropped.
  func deliver(_ reply: EffectReply, to id: EffectID) {
    guard let entry = running[id] else { return }
    let isFinal = entry.request.isFinal(reply)
    if isFinal { running[id] = nil }
    entry.deliver(reply)
    if isFinal { entry.onComplete() }
  }

  /// The id the next request will get; ids only grow.
  var nextRequestID: EffectID { nextID }

  /// Forgets requests without telling the executor or continuing what waited
  /// for them: the host threw away the actions that started them.
  func forget(_ ids: some Sequence<EffectID>) {
    for id in ids { running[id] = nil }
  }

  /// Cancels one request in flight, as if its feature had cancelled it.
  func cancel(request id: EffectID) {
    guard let entry = running.removeValue(forKey: id) else { return }
    executor.cancel(id)
    entry.onComplete()
  }

  private func run(
    _ effect: Effect<Action>, node: EffectNode, scope: [ScopeComponent], origin: Origin,
    onComplete: @escaping () -> Void
  ) {
    switch effect.operation {
    case .none:
      onComplete()

    case .send(let action):
      enqueue(action, origin)
      onComplete()

    case .request(let request, let mapping):
      let id = nextID
      nextID += 1
      let enqueue = enqueue
      running[id] = RunningRequest(
        request: request, node: node, scope: scope, origin: origin,
        deliver: { reply in
          if let action = mapping(reply) { enqueue(action, origin) }
        },
        onComplete: onComplete)
      executor.start(request, id: id)

    case .merge(let effects):
      var remaining = effects.count
      for effect in effects {
        run(effect, node: node, scope: scope, origin: origin) {
          remaining -= 1
          if remaining == 0 { onComplete() }
        }
      }

    case .concatenate(let effects):
      runSequence(effects[...], node: node, scope: scope, origin: origin, onComplete: onComplete)

    case .cancellable(let id, let cancelInFlight, let effect):
      let key = EffectCancelKey(scope: scope, id: id)
      if cancelInFlight { cancel(nodes: cancellables.removeValue(forKey: key)) }
      let child = EffectNode(parent: node)
      cancellables[key, default: [:]][ObjectIdentifier(child)] = child
      run(effect, node: child, scope: scope, origin: origin) { [weak self] in
        self?.cancellables[key]?[ObjectIdentifier(child)] = nil
        if self?.cancellables[key]?.isEmpty == true { self?.cancellables[key] = nil }
        onComplete()
      }

    case .cancel(let id):
      cancel(nodes: cancellables.removeValue(forKey: EffectCancelKey(scope: scope, id: id)))
      onComplete()

    case .scoped(let component, let effect):
      let childScope = scope + [component]
      let child = EffectNode(parent: node)
      scopes[childScope, default: [:]][ObjectIdentifier(child)] = child
      run(effect, node: child, scope: childScope, origin: origin) { [weak self] in
        self?.scopes[childScope]?[ObjectIdentifier(child)] = nil
        if self?.scopes[childScope]?.isEmpty == true { self?.scopes[childScope] = nil }
        onComplete()
      }

    case .cancelScope(let component):
      let prefix = scope + [component]
      var nodes: [ObjectIdentifier: EffectNode] = [:]
      for (path, registered) in scopes where path.starts(with: prefix) {
        nodes.merge(registered) { first, _ in first }
      }
      for path in cancellables.keys where path.scope.starts(with: prefix) {
        cancellables[path] = nil
      }
      cancel(nodes: nodes)
      onComplete()
    }
  }

  /// Runs `effects` one after another without recursing for effects that
  /// complete at once, so long chains of sends cannot overflow the stack.
  private func runSequence(
    _ effects: ArraySlice<Effect<Action>>, node: EffectNode, scope: [ScopeComponent], origin: Origin,
    onComplete: @escaping () -> Void
  ) {
    var remaining = effects
    while let first = remaining.popFirst() {
      if node.isCancelledOrAncestorCancelled { break }
      var runningSynchronously = true
      var completedSynchronously = false
      let rest = remaining
      run(first, node: node, scope: scope, origin: origin) { [weak self] in
        if runningSynchronously {
          completedSynchronously = true
        } else {
          self?.runSequence(rest, node: node, scope: scope, origin: origin, onComplete: onComplete)
        }
      }
      runningSynchronously = false
      if !completedSynchronously { return }
    }
    onComplete()
  }

  /// Cancels `nodes`: their requests stop at the executor and complete, so
  /// whatever waited on them moves on (and stops if it was cancelled too).
  private func cancel(nodes: [ObjectIdentifier: EffectNode]?) {
    guard let nodes, !nodes.isEmpty else { return }
    for node in nodes.values { node.isCancelled = true }
    let cancelled = running.filter { $0.value.node.isCancelledOrAncestorCancelled }.sorted { $0.key < $1.key }
    for (id, entry) in cancelled {
      running[id] = nil
      executor.cancel(id)
      entry.onComplete()
    }
  }
}

/// A node of the cancellation tree: a `cancellable` or a child scope.
private final class EffectNode {
  let parent: EffectNode?
  var isCancelled = false

  init(parent: EffectNode?) { self.parent = parent }

  var isCancelledOrAncestorCancelled: Bool {
    var node: EffectNode? = self
    while let current = node {
      if current.isCancelled { return true }
      node = current.parent
    }
    return false
  }
}

/// A cancellation id, within the scope that declared it.
private struct EffectCancelKey: Hashable {
  let scope: [ScopeComponent]
  let id: CancelID
}

/// A request in flight and what its replies go to.
private struct RunningRequest {
  let request: EffectRequest
  let node: EffectNode
  let scope: [ScopeComponent]
  let origin: Origin
  /// Maps a reply to an action and enqueues it (if the mapping gives one).
  let deliver: (EffectReply) -> Void
  let onComplete: () -> Void
}
