/// Where a fetch of the online store's data (products, profile) stands, so a
/// client can show a spinner, the data, or the error with a Retry button.
public enum StoreLoadStatus: Equatable, Hashable, Sendable, Codable {
  /// Nothing has been requested yet, and nothing is shown.
  case idle
  /// Data shipped with the app is shown (the product list's
  /// ``Product/bundledCatalog``); fetching gets the live data.
  case bundled
  /// A request is in flight; asking again does nothing.
  case loading
  /// The data arrived; asking again does nothing.
  case loaded
  /// The last request failed, for the reason given; asking again retries.
  /// Whatever was shown before (bundled data) stays shown.
  case failed(String)

  /// Whether a request is in flight.
  public var isLoading: Bool { self == .loading }

  /// Whether a fetch may start: nothing live loaded or loading yet, or a
  /// retry after a failure.
  public var canFetch: Bool {
    switch self {
    case .idle, .bundled, .failed: true
    case .loading, .loaded: false
    }
  }
}
