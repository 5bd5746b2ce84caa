/// The clients the store loop serves, by connection id, and those that have
/// stopped sending and are let go once answered. Confined to the store
/// loop's thread.
final class ClientRegistry {
  private(set) var byID: [Int: ConnectedClient] = [:]
  /// The clients whose connections have stopped reading (they closed, or
  /// closed their writing half), let go once they are answered.
  var leaving: Set<Int> = []

  /// The client found last: a connection's requests come in runs (a
  /// client pipelining, a batch of its sends), found without a hash.
  private var recent: ConnectedClient?

  subscript(id: Int) -> ConnectedClient? {
    if let recent, recent.connection.id == id { return recent }
    let found = byID[id]
    if let found { recent = found }
    return found
  }

  var count: Int { byID.count }

  func add(_ client: ConnectedClient) {
    byID[client.connection.id] = client
    if recent?.connection.id == client.connection.id { recent = client }
  }

  /// Forgets the client; its connection stays as it is.
  func remove(_ id: Int) {
    byID[id] = nil
    if recent?.connection.id == id { recent = nil }
  }
}
