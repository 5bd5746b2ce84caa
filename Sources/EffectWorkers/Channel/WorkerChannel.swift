import EffectRequests
import Glibc
import Platform
import Synchronization
import Wire

/// The worker's end of the socket to the daemon, for writing.
///
/// Replies come from several threads (the command loop, URLSession's delegate
/// queue, the storage work thread); one mutex makes each frame go out whole
/// and never interleaved with another. A write that fails means the daemon is
/// gone: the worker exits 0 at once, like on end-of-file.
package final class WorkerChannel: Sendable {
  let socket: UnixSocket
  package let log: Logger
  private let writeLock = Mutex(())

  init(socket: UnixSocket, log: Logger) {
    self.socket = socket
    self.log = log
  }

  /// Sends `event`. A reply too large for one frame is replaced by a failure
  /// saying so, so that the request still ends.
  package func send(_ event: WorkerEvent) {
    let frame: [UInt8]
    do {
      frame = try WorkerProtocol.frame(event)
    } catch {
      guard case .reply(let id, _) = event else {
        log.error("cannot encode \(event): \(error)")
        return
      }
      log.warning("reply to request \(id) cannot be sent: \(error)")
      send(.reply(id: id, reply: .failure(EffectFailure(.invalidRequest, "the reply cannot be sent: \(error)"))))
      return
    }
    writeLock.withLock { _ in
      do {
        try socket.write(frame)
      } catch {
        log.info("the daemon is gone (\(error)); exiting")
        _exit(ExitStatus.success.rawValue)
      }
    }
  }

  /// Sends a reply to request `id`.
  package func reply(_ id: EffectID, _ reply: EffectReply) {
    send(.reply(id: id, reply: reply))
  }
}
