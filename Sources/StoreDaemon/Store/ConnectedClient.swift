import ComposableCore
import Journal
import Wire

/// One client the store loop serves: its connection and name, and what each
/// owner of the loop keeps about it. Confined to the store loop's thread.
final class ConnectedClient {
  let connection: Connection
  let name: String

  // The fan-out (``Publisher``):

  /// The part of the state the client watches, if it subscribed.
  var subscription: JSONPointer? {
    didSet { (isSubscribed, watchesRoot) = (subscription != nil, subscription?.isRoot ?? false) }
  }
  /// Whether ``subscription`` is set, and whether it is the whole state:
  /// read for every subscriber and every version, so kept as plain flags
  /// rather than copied out of the optional each time.
  private(set) var isSubscribed = false
  private(set) var watchesRoot = false
  /// When a diff, snapshot or heartbeat was last offered to the subscriber.
  var lastSent = ContinuousClock.now
  /// How many bytes of the open batch's root diffs a root subscriber was
  /// offered (or, subscribed during the batch, came after).
  var batchRootOffset = 0

  // History reads (``HistoryRequests``):

  var follower: LogFollower?
  /// Whether the history reader is answering one of the client's requests;
  /// its later requests wait in `deferred` meanwhile.
  var historyPending = false

  // Flow control (``StoreLoop``):

  /// The client's requests that wait, in order: for a history read to be
  /// answered, or for the client to read the answers already queued.
  var deferred: [StoreLoop.Command] = []
  /// Whether `deferred` is being worked through (its head was just taken).
  var isDraining = false

  init(connection: Connection, name: String) {
    self.connection = connection
    self.name = name
  }
}

/// A client following the log: the `log` request that asked, and, while its
/// history is still being read, the records made durable meanwhile.
struct LogFollower {
  let requestID: Int
  var waiting: [JournalRecord]? = []
}
