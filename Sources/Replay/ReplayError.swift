/// Why a history cannot be replayed at all (as opposed to a version that
/// replays differently, a ``ReplayDivergence``).
public enum ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The history cannot be read: what is wrong with it.
  case unreadable(String)
  /// The state the history starts from cannot be brought to this build's
  /// `State`: why.
  case unusableBase(String)
  /// A recorded patch does not apply to the recorded state before it: the
  /// history is not one the daemon wrote.
  case inconsistent(version: UInt64, reason: String)
  /// What was asked of the replay does not fit the history.
  case invalidRequest(String)

  public var description: String {
    switch self {
    case .unreadable(let reason): reason
    case .unusableBase(let reason): reason
    case .inconsistent(let version, let reason):
      "the recorded patch of version \(version) does not apply to the recorded state before it (\(reason)): "
        + "the history is damaged or was not written by the daemon"
    case .invalidRequest(let reason): reason
    }
  }
}
