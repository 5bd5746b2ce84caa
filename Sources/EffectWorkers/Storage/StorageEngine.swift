import Dispatch
import EffectRequests

/// The storage worker: requests are carried out one at a time, in the order
/// they arrived, on one work thread (a serial queue), so a put followed by a
/// get sees the put. The command loop only enqueues, so it stays free to
/// answer pings and take cancels while a large put is being fsynced.
///
/// A cancel drops a request that has not started; one already running
/// finishes (a put is never left half done) but is not answered.
final class StorageEngine: WorkerEngine {
  private let channel: WorkerChannel
  private let directory: StorageDirectory
  private let queue = DispatchQueue(label: "effectworker.storage")
  private let pending = PendingRequests()

  init(channel: WorkerChannel, directory: StorageDirectory) {
    self.channel = channel
    self.directory = directory
  }

  func start(_ id: EffectID, _ request: EffectRequest) {
    guard case .storage(let storage) = request else {
      channel.reply(id, .failure(request.wrongKind(for: .storage)))
      return
    }
    guard let serial = pending.add(id) else {
      channel.log.warning("request \(id) was started twice; the first is cancelled")
      channel.reply(id, .failure(EffectFailure(.invalidRequest, "request \(id) is already running")))
      return
    }
    let (channel, directory, pending) = (channel, directory, pending)
    queue.async {
      guard pending.isPending(id, serial: serial) else { return }
      let reply = directory.perform(storage)
      if case .failure(let failure) = reply, failure.kind == .storage { channel.log.info(failure.message) }
      pending.finish(id, serial: serial) { channel.reply(id, reply) }
    }
  }

  func cancel(_ id: EffectID) {
    pending.cancel(id)
  }
}
