import ComposableCore
import Wire

/// What a ``Turn`` asks of the effect workers: to start and cancel the
/// requests of its durable batches (``EffectExecutor``), and the replies
/// made up on the workers' side for requests that could not be carried out
/// (a worker that died, a deadline), which the turn reduces. The daemon's
/// are the ``WorkerSupervisor``'s processes; the tests' in-memory harness
/// scripts its own.
protocol EffectWorkers: EffectExecutor {
  /// The replies made up since the last call, in order.
  func takeReplies() -> [(EffectReply, EffectID)]
}

/// The effect workers as the daemon's stores share them
/// (``SharedWorkers``): each request is started for a store, named to the
/// worker. The daemon's are the ``WorkerSupervisor``'s processes.
protocol WorkerPool: EffectWorkers {
  /// Starts `request` for the store `store` (nil: the default store).
  func start(_ request: EffectRequest, id: EffectID, store: StoreName?)
}
