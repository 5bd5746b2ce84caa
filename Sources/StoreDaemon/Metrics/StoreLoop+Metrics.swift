import Metrics
import Platform
import Wire

/// The daemon's metrics in Prometheus' text format (docs/OPERATIONS.md,
/// "Metrics"), gathered from the loop's owners when scraped: counters each
/// owner keeps as it works, and gauges read now. Runs on the store loop's
/// thread only (``LoopCommand/metrics(_:)``).
extension StoreLoop {
  var metricsExposition: String {
    var text = PrometheusText()
    text.single(
      "storedaemon_info", .gauge, help: "The hosted app, its version and the protocol it speaks; always 1.",
      labels: [("app", App.name), ("app_version", App.version), ("protocol", String(ProtocolVersion.current))], 1)
    text.single(
      "storedaemon_version", .gauge, help: "The default store's version: the number of the last action reduced.",
      store.version)
    let progress = committer.progress
    text.single(
      "storedaemon_durable_version", .gauge, help: "The last version of the default store known to be on disk.",
      progress.durableVersion)
    var figures = closedFigures
    forEachStore { figures.add($0) }
    actionMetrics(figures, into: &text)
    connectionMetrics(figures, into: &text)
    journalMetrics(figures, into: &text)
    workerMetrics(into: &text)
    replicationMetrics(into: &text)
    if let statistics = ProcessStatistics.current() { text.process(statistics) }
    return text.text
  }

  private func actionMetrics(_ figures: StoreFigures, into text: inout PrometheusText) {
    text.family(
      "storedaemon_actions_total", .counter,
      help: "Actions reduced, by case (ids left out) and by origin: client, effect or recovery.")
    for (key, count) in figures.actions.counts {
      text.sample("storedaemon_actions_total", [("case", key.casePath), ("origin", key.sender.rawValue)], count)
    }
    text.family(
      "storedaemon_refusals_total", .counter,
      help: "Requests and connections refused, by the error code they were answered with (docs/PROTOCOL.md).")
    let refusals = figures.refusals + server.refusals
    for code in WireErrorCode.allCases {
      text.sample("storedaemon_refusals_total", [("reason", code.rawValue)], refusals[code])
    }
    text.histogram(
      "storedaemon_batch_actions", help: "Versions per batch written to the journal (group commit).",
      figures.batchActions)
    text.histogram(
      "storedaemon_turn_seconds", help: "How long each batch was open, from its first action read to its close.",
      figures.turnSeconds)
    text.histogram(
      "storedaemon_commit_seconds",
      help: "From a batch's close to its being durable: its write and, under --fsync always, its sync.",
      figures.commitSeconds)
  }

  private func connectionMetrics(_ figures: StoreFigures, into text: inout PrometheusText) {
    var clients = 0
    var watchers = 0
    forEachStore { instance in
      clients += instance.clients.count
      watchers += instance.publisher.subscriberCount
    }
    text.single(
      "storedaemon_connections_accepted_total", .counter, help: "Client connections accepted.", server.accepted)
    text.single(
      "storedaemon_stores_open", .gauge,
      help: "Stores open: the default store and the named ones open now.",
      storeCount)
    text.single("storedaemon_clients", .gauge, help: "Clients connected (past their hello).", clients)
    text.single("storedaemon_watchers", .gauge, help: "Clients subscribed to the state.", watchers)
    text.single(
      "storedaemon_resyncs_total", .counter,
      help: "Snapshots sent to subscribers instead of the diffs they could not keep up with.", figures.resyncs)
    text.single(
      "storedaemon_lagged_disconnects_total", .counter,
      help: "Subscribers disconnected for reading nothing while they had to be resynced (--lag-timeout).",
      figures.laggedDisconnects)
  }

  private func journalMetrics(_ figures: StoreFigures, into text: inout PrometheusText) {
    var journalBytes = 0
    var snapshotBytes = 0
    var refusing = 0
    forEachStore { instance in
      let progress = instance.committer.progress
      journalBytes += progress.bytesSinceSnapshot
      snapshotBytes += progress.snapshotBytes
      if instance.committer.writesRefused != nil { refusing += 1 }
    }
    text.histogram(
      "storedaemon_fsync_seconds", help: "How long each fdatasync of a batch took (--fsync always).",
      figures.syncSeconds)
    text.single(
      "storedaemon_journal_written_bytes_total", .counter, help: "Bytes of records written to the journals.",
      figures.bytesWritten)
    text.single(
      "storedaemon_journal_bytes", .gauge,
      help: "Bytes of journal records since each open store's latest snapshot: what opening them again replays.",
      journalBytes)
    text.single(
      "storedaemon_snapshot_bytes", .gauge, help: "The open stores' latest snapshots' sizes in bytes.",
      snapshotBytes)
    text.single(
      "storedaemon_writes_refused", .gauge,
      help: "Open stores whose journal refuses writes after an I/O error (see the log): 0 while all write.",
      refusing)
  }

  private func workerMetrics(into text: inout PrometheusText) {
    let figures = supervisor.figures
    text.family(
      "storedaemon_effects_in_flight", .gauge, help: "Effect requests handed to a worker process, by kind.")
    for worker in figures {
      text.sample("storedaemon_effects_in_flight", [("kind", worker.kind.rawValue)], worker.inFlight)
    }
    text.family(
      "storedaemon_effects_queued", .gauge, help: "Effect requests waiting for their worker to be ready, by kind.")
    for worker in figures {
      text.sample("storedaemon_effects_queued", [("kind", worker.kind.rawValue)], worker.queued)
    }
    text.family("storedaemon_worker_restarts_total", .counter, help: "Worker processes restarted, by kind.")
    for worker in figures {
      text.sample("storedaemon_worker_restarts_total", [("kind", worker.kind.rawValue)], worker.restarts)
    }
    text.family(
      "storedaemon_worker_state", .gauge, help: "Each worker kind's state: 1 for the one it is in, 0 for the others.")
    for worker in figures {
      for state in WorkerSlot.Phase.names {
        text.sample(
          "storedaemon_worker_state", [("kind", worker.kind.rawValue), ("state", state)], worker.phase == state ? 1 : 0)
      }
    }
    text.single(
      "storedaemon_workers_degraded", .gauge,
      help: "Worker kinds degraded: restarted too often, their requests failed until a retry succeeds.",
      figures.filter { $0.phase == "degraded" }.count)
  }

  private func replicationMetrics(into text: inout PrometheusText) {
    guard let replica = committer.replica else { return }
    let figures = replica.figures
    text.single(
      "storedaemon_replication_leading", .gauge, help: "1 while this daemon leads its replicated store, else 0.",
      figures.role == .leading ? 1 : 0)
    text.single(
      "storedaemon_replication_log_head", .gauge, help: "The replicated log's last version, as this daemon knows it.",
      figures.head)
    text.single(
      "storedaemon_replication_lag_versions", .gauge,
      help: "Versions of the replicated log this daemon has not applied yet.",
      figures.head > store.version ? figures.head - store.version : 0)
    text.single(
      "storedaemon_replication_leader_changes_total", .counter,
      help: "Times this daemon saw the store's leader change.",
      figures.leaderChanges)
  }
}
