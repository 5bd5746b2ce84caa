/// Where a fetch of the online store's data (products, profile) stands, so a
/// client can show a spinner, the data, or the error with a Retry button.
public enum StoreLoadStatus: Equatable, Hashable, Sendable, Codable {
  /// Nothing has been requested yet.
  case idle
  /// A request is in flight; asking again does nothing.
  case loading
  /// The data arrived; asking again does nothing.
  case loaded
  /// The last request failed, for the reason given; asking again retries.
  case failed(String)

  /// Whether a request is in flight.
  public var isLoading: Bool { self == .loading }

  /// Whether a fetch may start: nothing loaded or loading yet, or a retry after a failure.
  public var canFetch: Bool {
    switch self {
    case .idle, .failed: true
    case .loading, .loaded: false
    }
  }
}
