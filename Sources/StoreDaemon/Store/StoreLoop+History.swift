import ComposableCore
import Journal
import JSON
import Wire

/// The action log and past states (`log`, `get` with `at`): read from the
/// journal by the ``HistoryReader`` off the loop's thread, while the loop goes
/// on. Until the answer is sent, the client's later requests wait, so its
/// answers keep the order of its requests. Runs on the store loop's thread only.
extension StoreLoop {
  /// A client following the log: the `log` request that asked, and, while its
  /// history is still being read, the records made durable meanwhile.
  struct LogFollower {
    let requestID: Int
    var waiting: [JournalRecord]? = []
  }

  func requestLog(_ client: Client, id: Int, since: UInt64?, last: Int?, follow: Bool) {
    if follow {
      guard client.subscription == nil, client.follower == nil else {
        send(
          .error(
            id: id, code: .alreadySubscribed,
            message: "this connection already has a subscription or follows the log; open another to follow the log"),
          to: client.connection)
        return
      }
      client.follower = LogFollower(requestID: id)
    }
    // Every batch is committed before a request that does not reduce, so the
    // loop's version is durable and published.
    startHistoryRead(client, id: id, .log(since: since, last: last, through: store.version))
  }

  func requestState(_ client: Client, id: Int, path: String, at version: UInt64) {
    guard version != store.version else {
      handle(.get(id: id, path: path), from: client)
      return
    }
    guard version < store.version else {
      send(
        .error(
          id: id, code: .versionUnavailable,
          message: "version \(version) has not been reached: the state is at version \(store.version)"),
        to: client.connection)
      return
    }
    let pointer: JSONPointer
    do {
      pointer = try JSONPointer(path)
    } catch {
      send(.error(id: id, code: .invalidPath, message: "'\(path)' is not a JSON Pointer: \(error)"), to: client.connection)
      return
    }
    startHistoryRead(client, id: id, .state(version: version, pointer: pointer, current: store.version))
  }

  private func startHistoryRead(_ client: Client, id: Int, _ request: HistoryReader.Request) {
    client.historyPending = true
    let connectionID = client.connection.id
    historyReader.answer(request, id: id) { [inbox] result in
      inbox.post(.history(connectionID: connectionID, requestID: id, result))
    }
  }

  /// Sends what the reader found, then handles the requests that waited for it.
  func finishHistoryRead(connectionID: Int, requestID: Int, _ result: Result<HistoryReader.Reply, MessageError>) {
    guard let client = clients[connectionID] else { return }
    client.historyPending = false
    let connection = client.connection
    // Only one history read is pending per client: a follower still waiting
    // for its history is following because of this one.
    let follows = client.follower?.waiting != nil
    switch result {
    case .failure(let error):
      if follows { client.follower = nil }
      send(.error(id: requestID, code: error.code, message: error.message), to: connection)
    case .success(let reply):
      offerAnswer(reply.frame, to: connection)
      guard clients[connectionID] != nil else { return }
      if case .log(_, _, let more) = reply.answer, follows {
        // A partial page: the client asks again from where it ends, and
        // follows from the last page.
        let waiting = client.follower?.waiting ?? []
        client.follower = more ? nil : LogFollower(requestID: requestID, waiting: nil)
        if !more { offerRecords(waiting, to: client) }
      }
    }
    handleDeferredRequests(of: client)
  }

  /// The most records kept for a follower while its history is read; past
  /// that it is disconnected as lagged, as one that does not read would be.
  static let maximumWaitingRecords = 100_000

  /// Gives the records of a durable batch to the clients that follow the log.
  func deliverToFollowers(_ records: [JournalRecord]) {
    guard let firstRecord = records.first else { return }
    for client in clients.values where client.follower != nil {
      if let waiting = client.follower!.waiting {
        guard waiting.count + records.count <= Self.maximumWaitingRecords else {
          disconnectLaggingFollower(client, after: (waiting.first ?? firstRecord).version - 1)
          continue
        }
        client.follower!.waiting!.append(contentsOf: records)
      } else {
        offerRecords(records, to: client)
      }
    }
  }

  private func offerRecords(_ records: [JournalRecord], to client: Client) {
    for record in records {
      let frame = MessageCodec.frame(ServerMessage.record(HistoryReader.entry(record, schema: schema)))
      guard client.connection.outbox.offer(frame, droppable: false) else {
        disconnectLaggingFollower(client, after: record.version - 1)
        return
      }
    }
  }

  private func disconnectLaggingFollower(_ client: Client, after version: UInt64) {
    let reason =
      "the client follows the log but does not read it fast enough; it was disconnected after version "
      + "\(version): resume with `tcactl log --since \(version) --follow`"
    client.connection.closeWithNotice(.lagged, reason)
    clients[client.connection.id] = nil
    Log.warning("connection \(client.connection.id) (\(client.name)): \(reason)")
  }
}
