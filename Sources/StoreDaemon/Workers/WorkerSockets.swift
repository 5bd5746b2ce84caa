import Glibc
import Platform

/// The effect workers' sockets in the store loop's event poll: exactly those
/// of the workers that run now, each watched for what it says, and for room
/// while commands wait to be written. Confined to the loop's thread.
struct WorkerSockets {
  /// The poll's tokens for the workers' sockets: each worker's key
  /// (``WorkerSupervisor/sockets``) from this base, above the clients'
  /// (``ConnectionServer/connectionTokenBase``).
  static let tokenBase: UInt64 = 1 << 62

  private var watched: [UInt64: WorkerSupervisor.Socket] = [:]

  /// Whether `token` names a worker's socket.
  static func isWorker(_ token: UInt64) -> Bool { token >= tokenBase }

  /// The descriptor of the worker's socket `token` names, if it is watched.
  func descriptor(for token: UInt64) -> Int32? {
    watched[token &- Self.tokenBase]?.descriptor
  }

  /// Brings the poll in step with the supervisor's sockets.
  mutating func update(from supervisor: WorkerSupervisor, in poll: EventPoll) {
    guard !supervisor.socketsAre(watched) else { return }
    let sockets = supervisor.sockets
    // Those gone first: a descriptor number may have been reused by a new
    // worker's socket, which is then added under its own key.
    for (key, socket) in watched where sockets[key]?.descriptor != socket.descriptor {
      poll.remove(socket.descriptor)
      watched[key] = nil
    }
    for (key, socket) in sockets where watched[key] != socket {
      let interest: EventPoll.Interest = socket.isWaitingToWrite ? [.readable, .writable] : .readable
      do {
        if watched[key] == nil {
          try poll.add(socket.descriptor, token: Self.tokenBase + key, interest: interest)
        } else {
          try poll.modify(socket.descriptor, token: Self.tokenBase + key, interest: interest)
        }
      } catch  where error.code == EEXIST {
        try? poll.modify(socket.descriptor, token: Self.tokenBase + key, interest: interest)
      } catch {
        Log.error("cannot watch a worker's socket: \(error)")
        continue
      }
      watched[key] = socket
    }
  }

  /// Stops watching every worker's socket (the workers have stopped).
  mutating func removeAll(from poll: EventPoll) {
    for socket in watched.values { poll.remove(socket.descriptor) }
    watched.removeAll()
  }
}
