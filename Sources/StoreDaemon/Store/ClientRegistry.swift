/// The clients the store loop serves, by connection id, and those that have
/// stopped sending and are let go once answered. Confined to the store
/// loop's thread.
final class ClientRegistry {
  private(set) var byID: [Int: ConnectedClient] = [:]
  /// The clients whose connections have stopped reading (they closed, or
  /// closed their writing half), let go once they are answered.
  var leaving: Set<Int> = []

  subscript(id: Int) -> ConnectedClient? { byID[id] }

  var count: Int { byID.count }

  func add(_ client: ConnectedClient) {
    byID[client.connection.id] = client
  }

  /// Forgets the client; its connection stays as it is.
  func remove(_ id: Int) {
    byID[id] = nil
  }
}
