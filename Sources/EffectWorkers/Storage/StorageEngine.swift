import Dispatch
import EffectRequests
import Platform
import Wire

/// The storage worker: requests are carried out one at a time, in the order
/// they arrived, on one work thread (a serial queue), so a put followed by a
/// get sees the put. The command loop only enqueues, so it stays free to
/// answer pings and take cancels while a large put is being fsynced.
///
/// A cancel drops a request that has not started; one already running
/// finishes (a put is never left half done) but is not answered.
///
/// Each store has its own documents: the default store's under
/// `<state-dir>/storage`, a named store's under
/// `<state-dir>/stores/<store>/storage`, opened by its first request.
final class StorageEngine: WorkerEngine {
  private let channel: WorkerChannel
  private let directory: StorageDirectory
  private let queue = DispatchQueue(label: "effectworker.storage")
  private let pending = PendingRequests()
  private let stores: DocumentsByStore

  init(channel: WorkerChannel, directory: StorageDirectory) {
    self.channel = channel
    self.directory = directory
    stores = DocumentsByStore(directory)
  }

  func start(_ id: EffectID, _ request: EffectRequest) {
    start(id, request, store: nil)
  }

  func start(_ id: EffectID, _ request: EffectRequest, store: StoreName?) {
    guard case .storage(let storage) = request else {
      channel.reply(id, .failure(request.wrongKind(for: .storage)))
      return
    }
    guard let serial = pending.add(id) else {
      channel.log.warning("request \(id) was started twice; the first is cancelled")
      channel.reply(id, .failure(EffectFailure(.invalidRequest, "request \(id) is already running")))
      return
    }
    let (channel, stores, pending) = (channel, stores, pending)
    queue.async {
      guard pending.isPending(id, serial: serial) else { return }
      let reply: EffectReply
      do throws(StorageError) {
        reply = try stores.directory(of: store, log: channel.log).perform(storage)
      } catch {
        reply = .failure(EffectFailure(.storage, "the documents of the store '\(store?.text ?? "")': \(error)"))
      }
      if case .failure(let failure) = reply, failure.kind == .storage { channel.log.info(failure.message) }
      pending.finish(id, serial: serial) { channel.reply(id, reply) }
    }
  }

  func cancel(_ id: EffectID) {
    pending.cancel(id)
  }

  /// Each store's documents, opened by the store's first request. Used on
  /// the work queue only.
  private final class DocumentsByStore: @unchecked Sendable {
    // Safe: read and written only by blocks on the engine's serial queue.
    private let main: StorageDirectory
    private var named: [StoreName: StorageDirectory] = [:]

    init(_ main: StorageDirectory) { self.main = main }

    /// The documents of `store`, the default store's for nil. A named
    /// store's are made at its first request, and what a put interrupted
    /// by a crash left there is removed then, as at the worker's start.
    func directory(of store: StoreName?, log: Logger) throws(StorageError) -> StorageDirectory {
      guard let store else { return main }
      if let directory = named[store] { return directory }
      let directory = try main.ofStore(store)
      for path in try directory.removeStaleTemporaries() {
        log.warning("removed \(path), left by a put that did not finish")
      }
      named[store] = directory
      return directory
    }
  }
}
