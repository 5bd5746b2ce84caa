import ComposableCore
import Journal
import Wire

/// What the other threads ask of the store loop (``StoreLoop/post(_:)``),
/// taken in arrival order.
enum LoopCommand: Sendable {
  /// A worker process ended or was reaped, posted by the thread that
  /// watches it. (What a worker sends, the loop reads itself.)
  case worker(WorkerKind, generation: Int, WorkerLink.Report)
  /// What the history reader of the store numbered `store` found for a
  /// client's `log` or `get` with `at`.
  case history(store: Int, connectionID: Int, requestID: Int, Result<HistoryReader.Reply, MessageError>)
  /// A reload (SIGHUP) is done: the dependencies the app's settings now
  /// give, which actions reduced from now on see, or nil if the settings
  /// could not be read.
  case reconfigure(DependencyValues?, done: @Sendable () -> Void)
  case shutdown(done: @Sendable () -> Void)
  /// Records of the replicated log this standby has not applied yet, in
  /// order, from its replica thread.
  case replicated([JournalRecord])
  /// This standby now leads its store: the log is applied to its end.
  case takeOver
  /// The replica thread starts a new store's log: the loop's version and
  /// state (canonical JSON), for the log's base.
  case replicaBase(@Sendable (Replica.Compaction) -> Void)

  /// The metrics, in Prometheus' text format, for a scrape
  /// (``StoreLoop/metricsExposition``).
  case metrics(@Sendable (String) -> Void)

  /// Whether handling the command may reduce actions (and so joins the
  /// open batch); any other command first commits it.
  var reduces: Bool {
    switch self {
    case .worker, .replicated: true
    default: false
    }
  }

  /// Whether the command only reads the loop's figures, and so neither
  /// joins the open batch nor waits for it to be durable.
  var onlyObserves: Bool {
    if case .metrics = self { true } else { false }
  }
}
