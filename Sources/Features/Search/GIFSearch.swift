import ComposableCore

/// The debounced GIF search (seed 004, Gifeed): as the search field's text
/// changes, search Giphy for it once typing pauses, and show the results, the
/// loading state and any failure.
///
/// - **Debounce.** Every text change restarts one timer of
///   `configuration.searchDebounce` (2 s by default), built with
///   `Effect.debounce(id:for:send:failed:)`: a real debounce, where only the last change
///   of a burst fires, so one timer runs however fast the typing, and a text
///   that recurs within the interval ("ca" → "cat" → "ca") searches once, not
///   once per occurrence as a timer per keystroke would. If the debounce timer
///   cannot fire (the timer worker died), the search starts at once: the pause
///   only decides when to search, and losing it must not lose the search.
/// - **Empty text resets**: the results and any failure are cleared, the pending
///   debounce and the search in flight are cancelled, and nothing is requested.
///   A text of only spaces counts as empty.
/// - **Only the latest query lands**: each search cancels the one in flight
///   (`cancelInFlight`), so a slow answer to an older query can never overwrite
///   a newer one.
/// - **Results replace** the previous ones, in Giphy's (relevance) order: a
///   person searching "dog" after "cat" expects to see dogs only, most
///   relevant first.
/// - **Failures are shown**: an HTTP status, an
///   undecodable body or a connection failure sets ``State/errorMessage`` to a
///   sentence for a person (a missing or refused API key names the setting
///   that fixes it), and ``Action/retryButtonTapped`` searches again.
/// - **A restart loses no search**: after storedaemon restarts, a search that
///   was in flight, or pending behind the debounce timer (the text differs from
///   the query: ``State/hasPendingSearch``), starts at once on
///   ``Action/recovered``, for the text, as when the debounce timer cannot
///   fire. A search is a GET, safe to repeat.
public struct GIFSearch: Reducer {
  /// What the search screen shows.
  public struct State: Equatable, Sendable, Codable {
    /// The search field's text, exactly as typed.
    public var text: String
    /// The query the results (or the search in flight) are for: the text,
    /// trimmed, when the debounce fired. Empty before any search and after a reset.
    public var query: String
    /// The GIFs found for ``query``, most relevant first.
    public var results: IdentifiedArrayOf<GifCard>
    /// Whether a search is in flight.
    public var isLoading: Bool
    /// Why the last search failed, for a person to read; `nil` otherwise.
    public var errorMessage: String?

    public init(
      text: String = "", query: String = "", results: IdentifiedArrayOf<GifCard> = [], isLoading: Bool = false,
      errorMessage: String? = nil
    ) {
      self.text = text
      self.query = query
      self.results = results
      self.isLoading = isLoading
      self.errorMessage = errorMessage
    }

    /// Whether a search waits behind the debounce timer: the text, trimmed, is
    /// not empty and is not the query searched for. (After a failure, a text
    /// changed and changed back to the query cannot be told from no change;
    /// Retry searches for it.)
    public var hasPendingSearch: Bool {
      let query = GIFSearch.trimmed(text)
      return !query.isEmpty && query != self.query
    }

    /// Whether the search waits on an effect: a search in flight, or one
    /// pending behind the debounce timer. ``Action/recovered`` restarts what
    /// this covers.
    public var isAwaitingEffect: Bool { isLoading || hasPendingSearch }
  }

  /// What can happen on the search screen.
  public enum Action: Equatable, Sendable, Codable {
    /// The search field's text changed (a keystroke, a paste, or
    /// `tcactl send search.textChanged cats`): restarts the debounce, or resets
    /// the search when the text is empty.
    case textChanged(String)
    /// The text stayed unchanged for the debounce interval: search for it.
    case debounceElapsed
    /// Search for the current query again, e.g. after a failure.
    case retryButtonTapped
    /// The search in flight found these GIFs, most relevant first.
    case searchResponse([Gif])
    /// The search in flight failed: a non-2xx status, an undecodable body, a
    /// connection failure or a timeout.
    case searchFailed(EffectFailure)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. A search pending
    /// behind the debounce starts at once, for the text; a search that was in
    /// flight starts again; otherwise nothing happens.
    case recovered
  }

  private enum CancelID { case debounce, search }

  /// How many GIFs one search asks for: Giphy's default page, which the seed
  /// got by sending no limit.
  static let pageSize = 25

  @Dependency(\.configuration) var configuration

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .textChanged(let text):
        if Self.trimmed(text).isEmpty {
          state.text = text
          state.query = ""
          state.results = []
          state.isLoading = false
          state.errorMessage = nil
          return .merge(.cancel(id: CancelID.debounce), .cancel(id: CancelID.search))
        }
        // A repeated notification of the same text is not a change: it must not
        // push the search back.
        guard text != state.text else { return .none }
        state.text = text
        return .debounce(id: CancelID.debounce, for: configuration.searchDebounce, send: .debounceElapsed) { _ in
          .debounceElapsed
        }

      case .debounceElapsed:
        let query = Self.trimmed(state.text)
        // Only spaces were added or removed: the results shown (or coming) are
        // already for this query.
        if query.isEmpty || (query == state.query && state.errorMessage == nil) { return .none }
        return search(query, &state)

      case .retryButtonTapped:
        guard !state.query.isEmpty else { return .none }
        return search(state.query, &state)

      case .searchResponse(let gifs):
        state.isLoading = false
        var results = IdentifiedArrayOf<GifCard>()
        // Giphy may list a GIF twice; the first (more relevant) one stays.
        for gif in gifs { results.append(GifCard(gif)) }
        state.results = results
        return .none

      case .searchFailed(let failure):
        state.isLoading = false
        // Results of an earlier query must not pass for this query's.
        state.results = []
        state.errorMessage = Self.message(for: failure, hasAPIKey: !configuration.gifSearchAPIKey.isEmpty)
        return .none

      case .recovered:
        if state.hasPendingSearch { return search(Self.trimmed(state.text), &state) }
        guard state.isLoading else { return .none }
        return search(state.query, &state)
      }
    }
  }

  /// Starts the search for `query`, cancelling the one in flight.
  private func search(_ query: String, _ state: inout State) -> Effect<Action> {
    state.query = query
    state.isLoading = true
    state.errorMessage = nil
    let parameters: KeyValuePairs<String, String> = [
      "api_key": configuration.gifSearchAPIKey, "q": query, "limit": "\(Self.pageSize)", "offset": "0",
      "rating": "g", "lang": "en",
    ]
    let url = "\(configuration.gifSearchBaseURL)/v1/gifs/search?\(URLQuery.string(parameters))"
    return .http(.get(url, timeout: configuration.requestTimeout), decoding: GifSearchResponse.self) { result in
      switch result {
      case .success(let response): .searchResponse(response.data)
      case .failure(let failure): .searchFailed(failure)
      }
    }
    .cancellable(id: CancelID.search, cancelInFlight: true)
  }

  /// `text` without leading and trailing white space.
  static func trimmed(_ text: String) -> String {
    var trimmed = Substring(text)
    while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
    while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
    return String(trimmed)
  }
}

extension GIFSearch: RecoverableFeature {
  /// ``Action/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}
