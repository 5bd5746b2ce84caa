import ComposableCore

/// What the GIF search's screen shows, published beside its state
/// (``PublishesView``).

extension GifCard: PublishesView {
  /// A result card as the grid lays it out.
  public struct View: Encodable, Equatable, Sendable {
    /// Height over width, to size the card in a column; 0 when unknown.
    public let sizeRatio: Double
  }

  public var view: View { View(sizeRatio: sizeRatio) }
}

extension GIFSearch.State: PublishesView {
  /// The search as its screen shows it.
  public struct View: Encodable, Equatable, Sendable {
    /// Whether a search waits for typing to pause.
    public let hasPendingSearch: Bool
    /// What the screen says above the results, or nil: searching, a
    /// failure, or that nothing was found.
    public let statusText: String?
  }

  public var view: View {
    let statusText: String? =
      if let errorMessage { errorMessage } else if isLoading || hasPendingSearch {
        "Searching…"
      } else if !query.isEmpty && results.isEmpty {
        "No GIFs found for “\(query)”."
      } else {
        nil
      }
    return View(hasPendingSearch: hasPendingSearch, statusText: statusText)
  }
}
