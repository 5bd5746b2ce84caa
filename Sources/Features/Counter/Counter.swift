import ComposableCore
import FoundationEssentials

/// The counter with a number fact (seed 003): increment and decrement a count,
/// and fetch a fact about the current number over HTTP, showing loading and
/// error states.
///
/// After storedaemon restarts with a fact still loading, ``Action/recovered``
/// fetches it again: a GET is safe to repeat.
public struct Counter: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var count = 0
    public var isLoading = false
    public var numberFact: String?
    /// Why the last fact could not be fetched, as a sentence for a person
    /// (``EffectFailure/sentence(about:)``), e.g. "Could not connect to the
    /// number facts service."; the failure's own message, with its URL and
    /// libcurl's words, is in the ``Action/numberFactFailed(_:)`` action.
    public var errorMessage: String?

    public init(count: Int = 0, isLoading: Bool = false, numberFact: String? = nil, errorMessage: String? = nil) {
      self.count = count
      self.isLoading = isLoading
      self.numberFact = numberFact
      self.errorMessage = errorMessage
    }

    /// Whether the counter waits on an effect: a fact is loading.
    /// ``Action/recovered`` restarts what this covers.
    public var isAwaitingEffect: Bool { isLoading }
  }

  public enum Action: Equatable, Sendable, Codable {
    case incrementButtonTapped
    case decrementButtonTapped
    case numberFactButtonTapped
    case numberFactResponse(String)
    case numberFactFailed(EffectFailure)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. A fact that was
    /// loading is fetched again, for the current count, as the fact button
    /// would; otherwise nothing happens.
    case recovered
  }

  enum CancelID { case fact }

  /// How the counter's messages name the number facts API.
  static let serviceName = "the number facts service"

  @Dependency(\.configuration) var configuration

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.count += 1
        return .none

      case .decrementButtonTapped:
        state.count -= 1
        return .none

      case .numberFactButtonTapped:
        state.isLoading = true
        // The fact shown was about the count when it was asked for: it goes
        // until the one about this count arrives, not to stand beside it.
        state.numberFact = nil
        state.errorMessage = nil
        return fetchFact(about: state.count)

      case .numberFactResponse(let fact):
        state.isLoading = false
        state.numberFact = fact
        return .none

      case .numberFactFailed(let failure):
        state.isLoading = false
        state.errorMessage = failure.sentence(about: Self.serviceName)
        return .none

      case .recovered:
        guard state.isAwaitingEffect else { return .none }
        return fetchFact(about: state.count)
      }
    }
  }

  /// `GET {numbersAPIBaseURL}/{number}` as text, answered by
  /// ``Action/numberFactResponse(_:)`` or ``Action/numberFactFailed(_:)``;
  /// it replaces the fetch in flight.
  private func fetchFact(about number: Int) -> Effect<Action> {
    let request = HTTPRequest(
      url: "\(configuration.numbersAPIBaseURL)/\(number)",
      headers: [HTTPHeader("Accept", "text/plain")], timeout: configuration.requestTimeout)
    return .http(request) { result in
      switch result {
      case .success(let response):
        .numberFactResponse(String(decoding: response.body, as: UTF8.self))
      case .failure(let failure):
        .numberFactFailed(failure)
      }
    }
    .cancellable(id: CancelID.fact, cancelInFlight: true)
  }
}

extension Counter: RecoverableFeature {
  /// ``Action/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}
