import Foundation
import FoundationNetworking

/// URLSession's delegate: it feeds the response head, each piece of the body
/// and the completion of every task to the ``TransferTable``, so the body is
/// counted as it arrives and an oversized one is aborted early instead of
/// being buffered whole.
final class NetworkDelegate: NSObject, URLSessionDataDelegate {
  let transfers: TransferTable

  init(transfers: TransferTable) {
    self.transfers = transfers
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    completionHandler(transfers.received(response, task: dataTask.taskIdentifier) ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    transfers.received(data, task: dataTask.taskIdentifier)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    transfers.completed(task: task.taskIdentifier, error: error)
  }
}
