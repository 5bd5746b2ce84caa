import ComposableCore
import JSON
import Replay
import Wire

/// What each request of a client is answered with, once the loop's flow
/// control lets it be handled: a send goes to the ``Turn``; a read of the
/// state, a subscription, the action list, the status, the log and a
/// what-if are answered from what is durable and published (the loop made
/// everything reduced durable first). Confined to the loop's thread; a
/// class, so that the loop's hand-over of each request is one reference.
final class ClientRequests<App: HostedApp> {
  let turn: Turn<App>
  let publisher: Publisher
  let history: HistoryRequests
  let clients: ClientRegistry
  /// The lineage of versions a resumed subscription must name.
  let epoch: String
  /// `tcactl status`'s report; set by the loop once it is made.
  var status: () -> JSONValue = { .null }
  /// What a `stores` request (after a name, at most a number of stores)
  /// reads, with the open stores as the loop knows them; set by the loop.
  var storesQuery: ((StoreName?, Int) -> StoreCatalog.Query)?
  /// What a standby tells a sender.
  let notLeader: (Replica) -> (message: String, leader: StoreLeader?)

  init(
    turn: Turn<App>, publisher: Publisher, history: HistoryRequests, clients: ClientRegistry, epoch: String,
    notLeader: @escaping (Replica) -> (message: String, leader: StoreLeader?)
  ) {
    self.turn = turn
    self.publisher = publisher
    self.history = history
    self.clients = clients
    self.epoch = epoch
    self.notLeader = notLeader
  }

  private var store: Store<App.Root> { turn.store }

  func answer(_ message: ClientMessage, from client: ConnectedClient) {
    let connection = client.connection
    switch message {
    case .hello:
      send(.error(id: nil, code: .handshake, message: "'hello' may be sent only once"), to: connection)

    case .send(let id, let input, let wait):
      #if DEBUG
        debugStallIfAsked(input)
      #endif
      turn.send(input, id: id, wait: wait, from: client, notLeader: notLeader)

    case .get(let id, let path, let version?) where version != store.version:
      history.requestState(client, id: id, path: path, at: version, current: store.version)

    case .get(let id, let path, _):
      switch publisher.value(at: path) {
      case .success(let value): send(.state(id: id, version: store.version, path: path, value: value), to: connection)
      case .failure(let error): send(.error(id: id, code: error.code, message: error.message), to: connection)
      }

    case .subscribe(let id, let path, let since, let clientEpoch):
      guard !history.isFollowing(connection.id) else {
        send(
          .error(
            id: id, code: .alreadySubscribed, message: "this connection follows the log; open another to subscribe"),
          to: connection)
        return
      }
      // A version from another epoch names another lineage: start afresh.
      let resumable = clientEpoch == nil || clientEpoch == epoch
      publisher.subscribe(client, id: id, path: path, since: since, resumable: resumable)

    case .actions(let id, let all):
      send(.actions(id: id, actions: turn.reader.access.listing(all: all)), to: connection)

    case .status(let id):
      send(.status(id: id, report: status()), to: connection)

    case .log(let id, let since, let last, let follow):
      // Every batch is committed before a request that does not reduce, so
      // the loop's version is durable and published.
      history.requestLog(client, id: id, since: since, last: last, follow: follow, through: store.version)

    case .whatIf(let id, let at, let edit):
      let replayEdit: ReplayEdit
      switch edit {
      case .without(let version):
        replayEdit = .remove(version: version)
      case .replace(let version, let input):
        do throws(MessageError) {
          // Any action, internal ones too: nothing is applied.
          replayEdit = .replace(version: version, action: try turn.reader.json(for: input))
        } catch {
          send(.error(id: id, code: error.code, message: error.message), to: connection)
          return
        }
      }
      history.requestWhatIf(
        client, id: id, at: at ?? store.version, edit: replayEdit, current: store.version,
        dependencies: store.dependencies)

    case .stores(let id, let after, let limit):
      guard let storesQuery else {
        send(.error(id: id, code: .internal, message: "this daemon does not list its stores"), to: connection)
        return
      }
      history.requestStores(client, id: id, storesQuery(after, limit ?? StoreListing.defaultLimit))
    }
  }

  /// Forgets the clients that stopped sending once nothing they asked for is
  /// still to be answered (a waiting request, a history read, a `settled`),
  /// and closes their connections after those answers.
  func letLeavingClientsGo() {
    for id in clients.leaving {
      guard let client = clients[id] else {
        clients.leaving.remove(id)
        continue
      }
      let owesAnswers = !client.deferred.isEmpty || client.historyPending || turn.waits(forConnection: id)
      guard client.connection.isClosing || !owesAnswers else { continue }
      clients.remove(id)
      publisher.forget(id)
      history.forget(id)
      turn.forgetWaits(ofConnection: id)
      clients.leaving.remove(id)
      client.connection.outbox.finish()
    }
  }

  private func send(_ message: ServerMessage, to connection: Connection) {
    turn.answer(message, to: connection)
  }
}
