import JSON

/// One client the store loop serves: its connection and name, and the
/// requests it has waiting. What it watches or follows is kept by the owner
/// concerned (``Publisher``, ``HistoryRequests``). Confined to the store
/// loop's thread.
final class ConnectedClient {
  let connection: Connection
  let name: String
  /// Who sent an action, as its journal record says, but for the origin:
  /// made once, as every action from the client names the same two.
  let sender: JSONObject
  /// `sender`'s canonical JSON up to the origin of an action.
  let senderPrefix: OriginPrefix?

  /// Whether the history reader is answering one of the client's requests
  /// (set by ``HistoryRequests``): its later requests wait in `deferred`
  /// meanwhile.
  var historyPending = false

  // Flow control (``RequestFlow``):

  /// The client's requests that wait, in order: for a history read to be
  /// answered, or for the client to read the answers already queued.
  var deferred: [ConnectionServer.Event] = []
  /// Whether `deferred` is being worked through (its head was just taken).
  var isDraining = false

  init(connection: Connection, name: String) {
    self.connection = connection
    self.name = name
    sender = ["client": .string(name), "connection": .int(connection.id)]
    senderPrefix = OriginPrefix(sender)
  }
}
