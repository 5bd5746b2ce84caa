/// One etcd member's client address, `HOST:PORT` with an IPv4 host, as
/// `--replicate etcd://HOST:PORT,…` names them.
public struct EtcdEndpoint: Hashable, Sendable, CustomStringConvertible {
  public let host: String
  public let port: UInt16

  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// `HOST:PORT`; nil for anything else.
  public init?(_ text: String) {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0
    else { return nil }
    let host = String(text[..<colon])
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return nil }
    self.init(host: host, port: port)
  }

  /// The endpoints of `etcd://HOST:PORT,HOST:PORT…`.
  ///
  /// - Throws: `EtcdError.malformed` saying what was expected.
  public static func parse(url: String) throws(EtcdError) -> [EtcdEndpoint] {
    guard url.hasPrefix("etcd://") else {
      throw .malformed("'\(url.prefix(80))' is not etcd://HOST:PORT[,HOST:PORT…]")
    }
    let list = url.dropFirst("etcd://".count).split(separator: ",", omittingEmptySubsequences: false)
    var endpoints: [EtcdEndpoint] = []
    for item in list {
      guard let endpoint = EtcdEndpoint(String(item)) else {
        throw .malformed("'\(item.prefix(80))' in \(url.prefix(200)) is not HOST:PORT with an IPv4 host")
      }
      endpoints.append(endpoint)
    }
    return endpoints
  }

  public var description: String { "\(host):\(port)" }
}
