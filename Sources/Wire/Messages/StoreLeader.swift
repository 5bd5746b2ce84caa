import JSON

/// The leader of a replicated store, as a standby names it in its
/// `not_leader` refusal (docs/PROTOCOL.md, "Replicated stores"): the
/// leader's node name, its Unix socket, and its TCP listener when it has
/// one, so that a client can send there without reading the message's text.
public struct StoreLeader: Equatable, Sendable {
  /// The leader's node name (`--node-name`).
  public var node: String
  /// The leader's Unix socket.
  public var socket: String
  /// The leader's TCP listener, `HOST:PORT`, when it has one.
  public var address: String?

  public init(node: String, socket: String, address: String? = nil) {
    self.node = node
    self.socket = socket
    self.address = address
  }

  /// As the refusal holds it: `{"node", "socket", "address"?}`.
  public var json: JSONValue {
    var object: JSONObject = ["node": .string(node), "socket": .string(socket)]
    if let address { object["address"] = .string(address) }
    return .object(object)
  }

  /// Reads it from the refusal's `leader`.
  public init(json: JSONValue) throws(MessageError) {
    guard case .object(let object) = json else {
      throw MessageError(.invalidMessage, "'leader' must be an object with 'node' and 'socket', got \(json)")
    }
    node = try object.string("node", in: "leader")
    socket = try object.string("socket", in: "leader")
    address = try object.optionalString("address", in: "leader")
  }
}
