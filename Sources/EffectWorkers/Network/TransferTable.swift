import EffectRequests
import EffectWorkers
import Foundation
import FoundationNetworking
import Synchronization

/// The HTTP transfers in flight, shared by the command loop (start, cancel,
/// deadlines) and URLSession's delegate queue (response, body, completion).
///
/// Each transfer ends exactly once, by whichever comes first: completion, its
/// deadline, the size limit, or a cancel. Ending removes it from the table
/// under the lock and, except for a cancel, writes its reply before the lock
/// is released, so nothing is ever replied for a request after the command
/// loop has taken its cancel, and late callbacks find nothing to do.
final class TransferTable: Sendable {
  private struct Transfer {
    var id: EffectID
    var task: URLSessionDataTask
    var method: String
    var url: String
    var displayURL: String
    var timeoutMilliseconds: Int
    var response: HTTPURLResponse?
    var body = Data()
  }

  private struct State {
    var transfers: [Int: Transfer] = [:]
    var tasks: [EffectID: Int] = [:]
  }

  private let channel: WorkerChannel
  /// The largest response body accepted, in bytes.
  let maximumResponseBytes: Int
  private let state = Mutex(State())

  init(channel: WorkerChannel, maximumResponseBytes: Int) {
    self.channel = channel
    self.maximumResponseBytes = maximumResponseBytes
  }

  /// Registers `task` as request `id`; call before resuming the task.
  func add(_ id: EffectID, task: URLSessionDataTask, for request: HTTPRequest) {
    let identifier = task.taskIdentifier
    state.withLock { state in
      state.transfers[identifier] = Transfer(
        id: id, task: task, method: request.method, url: request.url, displayURL: request.displayURL,
        timeoutMilliseconds: request.timeoutMilliseconds)
      state.tasks[id] = identifier
    }
  }

  /// Request `id` reached its deadline: if it is still in flight, it is
  /// aborted and answered with a timeout.
  func expire(_ id: EffectID) {
    guard let identifier = state.withLock({ $0.tasks[id] }) else { return }
    finish(identifier, abort: true) { transfer in
      .failure(
        NetworkFailure.deadlineExpired(
          method: transfer.method, displayURL: transfer.displayURL, milliseconds: transfer.timeoutMilliseconds))
    }
  }

  /// Aborts request `id` without replying. Returns whether it was in flight.
  @discardableResult
  func cancel(_ id: EffectID) -> Bool {
    state.withLock { state in
      guard let identifier = state.tasks.removeValue(forKey: id),
        let transfer = state.transfers.removeValue(forKey: identifier)
      else { return false }
      transfer.task.cancel()
      return true
    }
  }

  /// The response head arrived. Returns false (and ends the transfer) when
  /// its announced length is already over the limit.
  func received(_ response: URLResponse, task identifier: Int) -> Bool {
    let length = response.expectedContentLength
    if length > Int64(maximumResponseBytes) {
      finishTooLarge(identifier)
      return false
    }
    state.withLock { $0.transfers[identifier]?.response = response as? HTTPURLResponse }
    return true
  }

  /// Part of the body arrived; the transfer ends at once if the body grows
  /// over the limit.
  func received(_ data: Data, task identifier: Int) {
    let tooLarge = state.withLock { state -> Bool in
      guard var transfer = state.transfers[identifier] else { return false }
      guard transfer.body.count + data.count <= maximumResponseBytes else { return true }
      // Taken out while appending, so the body is not copied on write.
      state.transfers[identifier] = nil
      transfer.body.append(data)
      state.transfers[identifier] = transfer
      return false
    }
    if tooLarge { finishTooLarge(identifier) }
  }

  /// URLSession finished the task, with `error` or a complete response.
  func completed(task identifier: Int, error: (any Error)?) {
    finish(identifier, abort: false) { transfer in
      if let error {
        return .failure(
          NetworkFailure.failure(
            for: error, method: transfer.method, url: transfer.url, displayURL: transfer.displayURL))
      }
      guard let response = transfer.response else {
        return .failure(
          EffectFailure(.connection, "\(transfer.method) \(transfer.displayURL): the server sent no HTTP response"))
      }
      return .http(HTTPResponse(status: response.statusCode, headers: Self.headers(of: response), body: transfer.body))
    }
  }

  /// A response's header fields, sorted by name (URLSession keeps them in a
  /// dictionary, so their order on the wire is lost).
  static func headers(of response: HTTPURLResponse) -> [HTTPHeader] {
    response.allHeaderFields.compactMap { name, value -> HTTPHeader? in
      guard let name = name as? String else { return nil }
      return HTTPHeader(name, value as? String ?? "\(value)")
    }
    .sorted { ($0.name.lowercased(), $0.value) < ($1.name.lowercased(), $1.value) }
  }

  private func finishTooLarge(_ identifier: Int) {
    let limit = maximumResponseBytes
    finish(identifier, abort: true) { transfer in
      .failure(NetworkFailure.responseTooLarge(method: transfer.method, displayURL: transfer.displayURL, limit: limit))
    }
  }

  /// Ends the transfer of task `identifier` if it is still in flight: removes
  /// it, aborts its task if `abort`, and sends `reply(transfer)`.
  private func finish(_ identifier: Int, abort: Bool, reply: (Transfer) -> EffectReply) {
    state.withLock { state in
      guard let transfer = state.transfers.removeValue(forKey: identifier) else { return }
      state.tasks[transfer.id] = nil
      if abort { transfer.task.cancel() }
      channel.reply(transfer.id, reply(transfer))
    }
  }
}
