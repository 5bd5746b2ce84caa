import ComposableCore
import Wire

/// The effect workers the daemon's stores share. Each store numbers its
/// requests from 1 (``Store``), so two stores' ids meet: a request goes to
/// the workers under an id of the daemon's own, and its replies come back
/// to the store that started it, under the store's id. A store's view of
/// the workers is its ``StoreWorkers``, made by ``workers(for:)``.
/// Confined to the loop's thread.
final class SharedWorkers {
  /// A request in flight: the store that started it, by its number, and its
  /// id there.
  private struct Route {
    let store: Int
    let id: EffectID
    let request: EffectRequest
  }

  private let workers: any WorkerPool
  private var routes: [EffectID: Route] = [:]
  private var nextID: EffectID = 1
  /// Each store's view, by the store's number.
  private var views: [Int: StoreWorkers] = [:]

  init(_ workers: any WorkerPool) {
    self.workers = workers
  }

  /// The view of the workers for the store numbered `store`, named `name`
  /// (nil: the default store).
  func workers(for store: Int, name: StoreName? = nil) -> StoreWorkers {
    // A number is another store's only after ``release(store:)``; a view of
    // another name is never handed out, whatever happens to the numbers.
    if let view = views[store], view.name == name { return view }
    let view = StoreWorkers(shared: self, store: store, name: name)
    views[store] = view
    return view
  }

  /// How many requests are in flight, over every store.
  var inFlight: Int { routes.count }

  /// Whether replies made up for a store wait for it to take them.
  var hasMadeUpReplies: Bool { views.values.contains { !$0.madeUp.isEmpty } }

  /// Whether the store numbered `store` has a request in flight or a made-up
  /// reply not yet taken.
  func hasWork(forStore store: Int) -> Bool {
    guard let view = views[store] else { return false }
    return !view.sharedIDs.isEmpty || !view.madeUp.isEmpty
  }

  /// Forgets the view of a store that was closed with no work
  /// (``hasWork(forStore:)``): its number may be another store's next.
  func release(store: Int) {
    views[store] = nil
  }

  /// The store a reply to the daemon's request `id` goes to, by its number,
  /// and the request's id there; nil for a request no longer tracked (it
  /// was cancelled). The route is forgotten with the request's last reply.
  func route(_ reply: EffectReply, to id: EffectID) -> (store: Int, id: EffectID)? {
    guard let route = routes[id] else { return nil }
    if route.request.isFinal(reply) { forget(id, route) }
    return (route.store, route.id)
  }

  fileprivate func start(_ request: EffectRequest, id: EffectID, from view: StoreWorkers) {
    let shared = nextID
    nextID += 1
    routes[shared] = Route(store: view.store, id: id, request: request)
    view.sharedIDs[id] = shared
    workers.start(request, id: shared, store: view.name)
  }

  fileprivate func cancel(_ id: EffectID, from view: StoreWorkers) {
    guard let shared = view.sharedIDs[id], let route = routes[shared] else { return }
    forget(shared, route)
    workers.cancel(shared)
  }

  /// Hands each store's view the replies the workers made up (a worker
  /// that died, a deadline) for its requests.
  fileprivate func distributeMadeUpReplies() {
    for (reply, id) in workers.takeReplies() {
      guard let (store, local) = route(reply, to: id), let view = views[store] else { continue }
      view.madeUp.append((reply, local))
    }
  }

  private func forget(_ shared: EffectID, _ route: Route) {
    routes[shared] = nil
    views[route.store]?.sharedIDs[route.id] = nil
  }
}

/// One store's view of the ``SharedWorkers``: what its ``Turn`` starts and
/// cancels, and the replies made up for it.
final class StoreWorkers: EffectWorkers {
  fileprivate unowned let shared: SharedWorkers
  /// The store's number, as the loop knows it.
  let store: Int
  /// The store's name, which the workers are given with its requests; nil
  /// for the default store.
  let name: StoreName?
  /// The daemon's id of each of the store's requests in flight.
  fileprivate var sharedIDs: [EffectID: EffectID] = [:]
  /// Replies made up for the store's requests, not yet taken.
  fileprivate var madeUp: [(EffectReply, EffectID)] = []

  fileprivate init(shared: SharedWorkers, store: Int, name: StoreName?) {
    self.shared = shared
    self.store = store
    self.name = name
  }

  func start(_ request: EffectRequest, id: EffectID) {
    shared.start(request, id: id, from: self)
  }

  func cancel(_ id: EffectID) {
    shared.cancel(id, from: self)
  }

  func takeReplies() -> [(EffectReply, EffectID)] {
    shared.distributeMadeUpReplies()
    guard !madeUp.isEmpty else { return [] }
    defer { madeUp.removeAll(keepingCapacity: true) }
    return madeUp
  }
}
