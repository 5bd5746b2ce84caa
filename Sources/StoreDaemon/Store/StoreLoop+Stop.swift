import Platform

/// How the store loop stops (SIGTERM, or systemd's stop): no new
/// connections; pending effects fail and their features hear why, in
/// durable batches, until none waits; the journal closes; the workers are
/// waited for; and every client reads its last answers, then goodbye.
extension StoreLoop {
  /// Stops everything the loop runs; the loop ends after it.
  func stop() {
    // No new connections. Pending effects fail (their features hear why),
    // and the workers are told to stop by the end of file on their
    // sockets. The daemon says goodbye to the clients once this is done.
    server.stopAccepting()
    let links = supervisor.stopAll()
    // What the failures' actions start fails in turn once their batch
    // is durable, until no feature waits on an effect; bounded, so that a
    // feature that asks again on every failure cannot hold the stop.
    var rounds = 0
    repeat {
      forEachStore { instance in
        instance.turn.deliverWorkerReplies()
        instance.turn.makeDurable()
      }
      rounds += 1
    } while (supervisor.hasReplies || effects.hasMadeUpReplies) && rounds < Self.shutdownRounds
    if supervisor.hasReplies || effects.hasMadeUpReplies {
      Log.warning(
        "stopping with effects still failing after \(Self.shutdownRounds) rounds; their failures are not reduced")
    }
    forEachStore { instance in
      if let syncDone = instance.committer.syncDone { poll.remove(syncDone) }
      do {
        try instance.committer.close()
      } catch {
        Log.error("closing the journal\(instance.name.map { " of the store '\($0)'" } ?? ""): \(error)")
      }
    }
    committer.replica?.stop()
    let deadline = ContinuousClock.now + .seconds(1)
    for link in links where !link.waitUntilExited(deadline: deadline) { link.kill() }
    // The waits the failures settled are answered before goodbye.
    forEachStore { instance in
      instance.turn.reportSettledWaits()
      if !instance.clients.leaving.isEmpty { instance.requests.letLeavingClientsGo() }
    }
    sayGoodbye()
  }

  /// Each client reads its answers, then goodbye; one that does not read is
  /// given up on after the write timeout. Every action the loop journaled
  /// is answered in its sender's outbox by now.
  private func sayGoodbye() {
    server.sayGoodbyeToAll("\(App.name) is shutting down")
    // Only the clients now: the workers have stopped.
    workerSockets.removeAll(from: poll)
    let deadline = ContinuousClock.now + options.writeTimeout + .seconds(1)
    while server.count > 0 && ContinuousClock.now < deadline {
      let until = min(deadline, server.nextDeadline ?? deadline)
      for event in poll.wait(milliseconds: Readiness.milliseconds(until: until)) {
        if event.token == LoopWaiter.wakeToken { inbox.wake.clear() } else { server.handle(event) }
      }
      server.enforceDeadlines()
      server.discardEvents()
    }
    if server.count > 0 {
      Log.warning(
        "stopping: \(server.count) client(s) did not read their last answers within the write timeout "
          + "(--write-timeout); closing them")
      server.closeAll()
    }
  }
}
