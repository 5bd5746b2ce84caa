import Metrics

/// What the metrics count over every store: each store's owners keep their
/// own counters and histograms as they work, and the metrics add up those of
/// the stores open with those the closed ones had counted when they closed,
/// so that a counter never goes back when a store is closed. Confined to the
/// loop's thread.
struct StoreFigures {
  var actions = ActionCounts()
  var refusals = RefusalCounts()
  var batchActions = Histogram.sizes
  var turnSeconds = Histogram.seconds
  var commitSeconds = Histogram.seconds
  var syncSeconds = Histogram.seconds
  var bytesWritten = 0
  var resyncs = 0
  var laggedDisconnects = 0

  /// Adds the counts of `instance`'s owners.
  mutating func add<App: HostedApp>(_ instance: StoreInstance<App>) {
    let turn = instance.turn
    actions.add(turn.actionCounts)
    batchActions.add(turn.batchActions)
    turnSeconds.add(turn.turnSeconds)
    commitSeconds.add(turn.commitSeconds)
    refusals = refusals + instance.publisher.refusals
    resyncs += instance.publisher.resyncs
    laggedDisconnects += instance.publisher.laggedDisconnects
    syncSeconds.add(instance.committer.syncSeconds)
    bytesWritten += instance.committer.bytesWritten
  }
}
