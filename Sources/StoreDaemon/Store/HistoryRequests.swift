import ActionLanguage
import ComposableCore
import JSON
import Journal
import Replay
import Wire

/// The action log and past states (`log`, `get` with `at`): read from the
/// journal by the ``HistoryReader`` off the loop's thread, while the loop goes
/// on; and the clients that follow the log, given each durable batch's
/// records. Until an answer is sent, the client's later requests wait, so its
/// answers keep the order of its requests. Confined to the store loop's thread.
final class HistoryRequests {
  /// The most records kept for a follower while its history is read; past
  /// that it is disconnected as lagged, as one that does not read would be.
  static let maximumWaitingRecords = 100_000

  /// A client following the log: the `log` request that asked, and, while
  /// its history is still being read, the records made durable meanwhile.
  private struct Follower {
    let client: ConnectedClient
    let requestID: Int
    var waiting: [JournalRecord]? = []
  }

  private let reader: HistoryReader
  private let schema: ActionSchema
  private let clients: ClientRegistry
  private let publisher: Publisher
  /// The clients following the log, by connection id.
  private var followers: [Int: Follower] = [:]

  /// Whether any client follows the log.
  var hasFollowers: Bool { !followers.isEmpty }
  /// Where the reader's answers go, from its thread.
  private let post: @Sendable (LoopCommand) -> Void
  /// The number of the store whose history this is, which its answers name.
  private let store: Int

  init(
    reader: HistoryReader, schema: ActionSchema, clients: ClientRegistry, publisher: Publisher, store: Int = 0,
    post: @escaping @Sendable (LoopCommand) -> Void
  ) {
    self.store = store
    self.reader = reader
    self.schema = schema
    self.clients = clients
    self.publisher = publisher
    self.post = post
  }

  /// Starts answering `log`; `through` is the last (durable) version.
  func requestLog(_ client: ConnectedClient, id: Int, since: UInt64?, last: Int?, follow: Bool, through: UInt64) {
    if follow {
      let connectionID = client.connection.id
      guard !publisher.isSubscribed(connectionID), followers[connectionID] == nil else {
        publisher.answer(
          .error(
            id: id, code: .alreadySubscribed,
            message: "this connection already has a subscription or follows the log; open another to follow the log"),
          to: client.connection)
        return
      }
      followers[connectionID] = Follower(client: client, requestID: id)
    }
    startRead(client, id: id, .log(since: since, last: last, through: through))
  }

  /// Whether the client of connection `id` follows the log.
  func isFollowing(_ id: Int) -> Bool {
    followers[id] != nil
  }

  /// Forgets a client that was let go.
  func forget(_ id: Int) {
    if !followers.isEmpty { followers[id] = nil }
  }

  /// Starts answering `get` at a past `version`; `current` is the store's.
  func requestState(_ client: ConnectedClient, id: Int, path: String, at version: UInt64, current: UInt64) {
    guard version < current else {
      publisher.answer(
        .error(
          id: id, code: .versionUnavailable,
          message: "version \(version) has not been reached: the state is at version \(current)"),
        to: client.connection)
      return
    }
    let pointer: JSONPointer
    do {
      pointer = try JSONPointer(path)
    } catch {
      publisher.answer(
        .error(id: id, code: .invalidPath, message: "'\(path)' is not a JSON Pointer: \(error)"), to: client.connection)
      return
    }
    startRead(client, id: id, .state(version: version, pointer: pointer, current: current))
  }

  /// Starts answering `whatIf`: the state at `version` with `edit`;
  /// `current` is the store's (durable) version.
  func requestWhatIf(
    _ client: ConnectedClient, id: Int, at version: UInt64, edit: ReplayEdit, current: UInt64,
    dependencies: DependencyValues
  ) {
    guard version <= current else {
      publisher.answer(
        .error(
          id: id, code: .versionUnavailable,
          message: "version \(version) has not been reached: the state is at version \(current)"),
        to: client.connection)
      return
    }
    guard edit.version >= 1, edit.version <= version else {
      publisher.answer(
        .error(
          id: id, code: .versionUnavailable,
          message: "the state at version \(version) cannot show version \(edit.version) changed: give a version "
            + "from 1 through \(version) to leave out or replace"),
        to: client.connection)
      return
    }
    startRead(client, id: id, .whatIf(version: version, edit: edit, through: current, dependencies: dependencies))
  }

  /// Starts answering `stores`: a page of the daemon's stores, read from
  /// the state directory off the loop's thread.
  func requestStores(_ client: ConnectedClient, id: Int, _ query: StoreCatalog.Query) {
    startRead(client, id: id, .stores(query))
  }

  private func startRead(_ client: ConnectedClient, id: Int, _ request: HistoryReader.Request) {
    client.historyPending = true
    let connectionID = client.connection.id
    reader.answer(request, id: id) { [post, store] result in
      post(.history(store: store, connectionID: connectionID, requestID: id, result))
    }
  }

  /// Sends what the reader found; returns the client, whose waiting requests
  /// may go on, if it is still there.
  func finish(
    connectionID: Int, requestID: Int, _ result: Result<HistoryReader.Reply, MessageError>
  ) -> ConnectedClient? {
    guard let client = clients[connectionID] else { return nil }
    client.historyPending = false
    let connection = client.connection
    // Only one history read is pending per client: a follower still waiting
    // for its history is following because of this one.
    let follows = followers[connectionID]?.waiting != nil
    switch result {
    case .failure(let error):
      if follows { followers[connectionID] = nil }
      publisher.answer(.error(id: requestID, code: error.code, message: error.message), to: connection)
    case .success(let reply):
      publisher.answer(reply.frame, to: connection)
      guard clients[connectionID] != nil else { return nil }
      if case .log(_, _, let more) = reply.answer, follows {
        // A partial page: the client asks again from where it ends, and
        // follows from the last page.
        let waiting = followers[connectionID]?.waiting ?? []
        followers[connectionID] = more ? nil : Follower(client: client, requestID: requestID, waiting: nil)
        if !more { offerRecords(waiting, to: client) }
      }
    }
    return client
  }

  /// Gives the records of a closed batch to the clients that follow the
  /// log: into their outboxes, which the batch holds until it is durable,
  /// or to wait for the page of the history they are being read.
  func deliverToFollowers(_ records: [JournalRecord]) {
    guard let firstRecord = records.first else { return }
    for (id, follower) in followers {
      if let waiting = follower.waiting {
        guard waiting.count + records.count <= Self.maximumWaitingRecords else {
          disconnectLaggingFollower(follower.client, after: (waiting.first ?? firstRecord).version - 1)
          continue
        }
        followers[id]?.waiting?.append(contentsOf: records)
      } else {
        offerRecords(records, to: follower.client)
      }
    }
  }

  /// Forgets the records after `version` waiting for followers' pages:
  /// their batch was refused (those already in outboxes are thrown away
  /// with its frames).
  func forgetRecords(after version: UInt64) {
    for (id, follower) in followers where follower.waiting?.last.map({ $0.version > version }) == true {
      followers[id]?.waiting?.removeAll { $0.version > version }
    }
  }

  private func offerRecords(_ records: [JournalRecord], to client: ConnectedClient) {
    for record in records {
      let frame = MessageCodec.frame(ServerMessage.record(HistoryReader.entry(record, schema: schema)))
      guard client.connection.outbox.offer(frame, droppable: false) else {
        disconnectLaggingFollower(client, after: record.version - 1)
        return
      }
    }
  }

  private func disconnectLaggingFollower(_ client: ConnectedClient, after version: UInt64) {
    let reason =
      "the client follows the log but does not read it fast enough; it was disconnected after version "
      + "\(version): resume with `tcactl log --since \(version) --follow`"
    client.connection.closeWithNotice(.lagged, reason)
    followers[client.connection.id] = nil
    clients.remove(client.connection.id)
    Log.write(
      .warning, "connection \(client.connection.id) (\(client.name)): \(reason)",
      fields: [("CLIENT", client.name), ("CONNECTION", String(client.connection.id))])
  }
}
