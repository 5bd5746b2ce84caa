/// Flow control of the clients' requests: a client's requests are handled
/// in order, one at a time; one waits while an earlier one does (a history
/// read under way) or while the client has not read its answers, and once
/// ``Connection/creditLimit`` wait, its socket is not read until they are
/// handled. So a client that does not read is not read either, and never
/// holds up another. Confined to the loop's thread.
struct RequestFlow {
  let server: ConnectionServer

  /// Whether a request of `client` may be handled now: none of its earlier
  /// ones waits, no history read is answering one, and it has read its
  /// answers but for less than its buffer. A client that does not read its
  /// answers is not read either: its requests wait (and, once 64 do, its
  /// socket is not read) until it catches up.
  func mayHandle(_ client: ConnectedClient) -> Bool {
    client.isDraining
      || (client.deferred.isEmpty && !client.historyPending && !client.connection.outbox.answersAreFull)
  }

  /// Keeps a request for later. Whatever made the client's requests wait
  /// (a history read, or unread answers) resumes them when it ends; once
  /// 64 wait, the client's socket is not read until they are handled.
  func postpone(_ event: ConnectionServer.Event, of client: ConnectedClient) {
    client.deferred.append(event)
    if client.deferred.count >= Connection.creditLimit { server.pause(client.connection) }
    if !client.historyPending && client.connection.outbox.answersAreFull { waitForRoom(client) }
  }

  /// Hands `handle` the client's waiting requests, in order, while it may
  /// and it is one of `clients` (those of its store).
  func handleDeferred(
    of client: ConnectedClient, in clients: ClientRegistry, _ handle: (ConnectionServer.Event) -> Void
  ) {
    let id = client.connection.id
    while !client.deferred.isEmpty, !client.historyPending, clients[id] === client {
      guard !client.connection.outbox.answersAreFull else { return waitForRoom(client) }
      client.isDraining = true
      handle(client.deferred.removeFirst())
      client.isDraining = false
    }
    if client.deferred.isEmpty && clients[id] === client { server.resume(client.connection) }
  }

  /// Asks the client's outbox to tell the loop once it has room again.
  private func waitForRoom(_ client: ConnectedClient) {
    let id = client.connection.id
    client.connection.outbox.whenRoom { [server] in server.noteRoom(id) }
  }
}
