import EffectRequests
import EffectWorkers
import Foundation
import FoundationNetworking
import Platform

/// The network worker: HTTP and HTTPS through one URLSession (libcurl
/// underneath), delegate-based so each response body is counted as it
/// arrives. Transfers run concurrently; each has a deadline on the whole
/// exchange, its body is limited in size, and any status comes back as
/// `.http`. The session keeps no cookies and no cache: a worker holds no
/// application state.
///
/// The deadlines are kept like the timer worker's timers, in a
/// ``TimerSchedule`` on the command loop's thread, which wakes at the
/// earliest; one that comes after its transfer ended finds nothing to do.
final class NetworkEngine: WorkerEngine {
  private let channel: WorkerChannel
  private let transfers: TransferTable
  private let session: URLSession
  private var deadlines = TimerSchedule()

  init(channel: WorkerChannel, maximumResponseBytes: Int) {
    self.channel = channel
    transfers = TransferTable(channel: channel, maximumResponseBytes: maximumResponseBytes)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let delegateQueue = OperationQueue()
    delegateQueue.name = "effectworker.network"
    delegateQueue.maxConcurrentOperationCount = 1
    session = URLSession(
      configuration: configuration, delegate: NetworkDelegate(transfers: transfers), delegateQueue: delegateQueue)
  }

  func start(_ id: EffectID, _ request: EffectRequest) {
    guard case .http(let http) = request else {
      channel.reply(id, .failure(request.wrongKind(for: .network)))
      return
    }
    if transfers.cancel(id) {
      deadlines.cancel(id)
      channel.log.warning("request \(id) was started twice; the first is cancelled")
      channel.reply(id, .failure(EffectFailure(.invalidRequest, "request \(id) is already running")))
      return
    }
    switch http.urlRequest() {
    case .failure(let failure):
      channel.reply(id, .failure(failure))
    case .success(let urlRequest):
      let task = session.dataTask(with: urlRequest)
      transfers.add(id, task: task, for: http)
      deadlines.schedule(
        id, TimerRequest(milliseconds: http.timeoutMilliseconds, repeats: false), now: MonotonicClock.now())
      task.resume()
    }
  }

  func cancel(_ id: EffectID) {
    transfers.cancel(id)
    deadlines.cancel(id)
  }

  func nextWake() -> MonotonicClock.Instant? {
    deadlines.nextDeadline()
  }

  func wake(at now: MonotonicClock.Instant) {
    for expired in deadlines.fireDue(now: now) { transfers.expire(expired.id) }
  }
}
