import Replication
import Testing

/// `--replicate etcd://HOST:PORT,…` read into the members of the cluster;
/// needs no etcd.
@Suite struct EtcdEndpointTests {
  /// A list of no member is refused with what was expected, so that an
  /// `EtcdClient`, which needs one, is never made of none.
  @Test func aListOfNoMemberIsRefused() throws {
    for url in ["etcd://", "etcd://,"] {
      #expect {
        try EtcdEndpoint.parse(url: url)
      } throws: { error in
        guard case .malformed(let message) = error as? EtcdError else { return false }
        return message.hasPrefix("'' in \(url) is not HOST:PORT with an IPv4 host")
      }
    }
    #expect(try EtcdEndpoint.parse(url: "etcd://127.0.0.1:2379").map(\.description) == ["127.0.0.1:2379"])
  }
}
