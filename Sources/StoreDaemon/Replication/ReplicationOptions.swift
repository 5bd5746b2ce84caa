import Glibc
import Replication

/// `--replicate` and the options beside it: the etcd cluster holding the
/// store's log, which store, and this daemon's name in it.
struct ReplicationOptions: Sendable {
  /// The etcd members, as `--replicate etcd://HOST:PORT,…` names them.
  var endpoints: [EtcdEndpoint]
  /// The store's name in etcd (`--store-id`): daemons of one store share it.
  var storeID: String
  /// This daemon's name in the leader key (`--node-name`; the host name).
  var nodeName: String
  /// Seconds the leader's lease lasts unrenewed (`--lease-ttl`): how long a
  /// standby waits after the leader stops before it takes over.
  var leaseTTL: Int = 10

  /// How long a request to etcd is tried before it fails: an append (the
  /// leader then steps down) or a standby's read. The lease's time, and at
  /// least the 10 s an etcd election can take on a busy machine; the
  /// lease's renewal has a shorter limit of its own (``Replica``), and the
  /// fencing, not this limit, keeps a deposed leader from appending.
  var patience: Duration { .seconds(max(leaseTTL, 10)) }

  /// A client for one thread: each request tried at each member in turn,
  /// a third of the lease's time each (at least a second), for
  /// ``patience`` in all; or, with `attempt`, for at most that in all.
  func makeLog(attempt: Duration? = nil) -> ReplicatedLog {
    let timeout = attempt.map { max($0, .milliseconds(200)) } ?? .seconds(max(1, leaseTTL / 3))
    let client = EtcdClient(
      endpoints: endpoints, timeout: timeout, patience: attempt.map { max($0, .milliseconds(200)) } ?? patience)
    return ReplicatedLog(storeID: storeID, client: client)
  }

  /// Whether `name` may name a store: letters, digits, `.`, `_` and `-`.
  static func isValidStoreID(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 128 && name != "." && name != ".."
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-".unicodeScalars.contains($0))
      }
  }

  /// The host's name, for `--node-name`'s default.
  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
