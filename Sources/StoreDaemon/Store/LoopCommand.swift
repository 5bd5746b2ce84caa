import ComposableCore
import Wire

/// What the other threads ask of the store loop (``StoreLoop/post(_:)``),
/// taken in arrival order.
enum LoopCommand: Sendable {
  /// A worker process ended or was reaped, posted by the thread that
  /// watches it. (What a worker sends, the loop reads itself.)
  case worker(WorkerKind, generation: Int, WorkerLink.Report)
  /// What the history reader found for a client's `log` or `get` with `at`.
  case history(connectionID: Int, requestID: Int, Result<HistoryReader.Reply, MessageError>)
  /// A reload (SIGHUP) is done: the dependencies the app's settings now
  /// give, which actions reduced from now on see, or nil if the settings
  /// could not be read.
  case reconfigure(DependencyValues?, done: @Sendable () -> Void)
  case shutdown(done: @Sendable () -> Void)

  /// Whether handling the command may reduce actions (and so joins the
  /// open batch); any other command first commits it.
  var reduces: Bool {
    switch self {
    case .worker: true
    default: false
    }
  }
}
