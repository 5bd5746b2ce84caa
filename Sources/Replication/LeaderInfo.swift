import JSON

/// Who leads a store, as its leader key says: a name for people and where
/// clients reach it.
public struct LeaderInfo: Equatable, Sendable, CustomStringConvertible {
  /// The daemon's node name (`--node-name`; the host name by default).
  public var node: String
  /// Its Unix socket.
  public var socket: String
  /// Its TCP listener (`host:port`), if it has one.
  public var address: String?

  public init(node: String, socket: String, address: String? = nil) {
    self.node = node
    self.socket = socket
    self.address = address
  }

  /// Reads the key's value; a value that is not such JSON (another
  /// program's) still names something.
  init(json bytes: [UInt8]) {
    guard case .object(let object)? = try? JSONParser.parse(bytes), case .string(let node)? = object["node"] else {
      self.init(node: String(decoding: bytes.prefix(200), as: UTF8.self), socket: "")
      return
    }
    var socket = ""
    if case .string(let text)? = object["socket"] { socket = text }
    var address: String?
    if case .string(let text)? = object["address"] { address = text }
    self.init(node: node, socket: socket, address: address)
  }

  var json: [UInt8] {
    var object: JSONObject = ["node": .string(node), "socket": .string(socket)]
    if let address { object["address"] = .string(address) }
    return CanonicalJSON.encode(.object(object))
  }

  public var description: String {
    "\(node) (socket \(socket)" + (address.map { ", address \($0)" } ?? "") + ")"
  }
}
