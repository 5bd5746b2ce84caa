/// Why an operation on the replicated log failed.
public enum ReplicationError: Error, Sendable, CustomStringConvertible {
  /// etcd did not answer within the client's patience, or refused the request.
  case etcd(EtcdError)
  /// This daemon no longer leads the store: why. Nothing of the refused
  /// write was applied.
  case deposed(String)
  /// The log no longer holds the records asked for: they are in the
  /// snapshot at this version.
  case compacted(base: UInt64)
  /// What etcd holds of the store is not what this daemon writes.
  case damaged(String)

  public var description: String {
    switch self {
    case .etcd(let error): "\(error)"
    case .deposed(let why): "no longer the leader: \(why)"
    case .compacted(let base): "the log was compacted up to version \(base); a follower starts from its snapshot"
    case .damaged(let what): "the replicated log is damaged: \(what)"
    }
  }
}
