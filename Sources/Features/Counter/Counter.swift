import ComposableCore
import FoundationEssentials

/// The counter with a number fact (seed 003): increment and decrement a count,
/// and fetch a fact about the current number over HTTP, showing loading and
/// error states.
public struct Counter: Reducer {
  public struct State: Equatable, Sendable, Codable {
    public var count = 0
    public var isLoading = false
    public var numberFact: String?
    /// Why the last fact could not be fetched, for a person to read.
    public var errorMessage: String?

    public init(count: Int = 0, isLoading: Bool = false, numberFact: String? = nil, errorMessage: String? = nil) {
      self.count = count
      self.isLoading = isLoading
      self.numberFact = numberFact
      self.errorMessage = errorMessage
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    case incrementButtonTapped
    case decrementButtonTapped
    case numberFactButtonTapped
    case numberFactResponse(String)
    case numberFactFailed(EffectFailure)
  }

  enum CancelID { case fact }

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
        state.errorMessage = nil
        let request = HTTPRequest(
          url: "\(configuration.numbersAPIBaseURL)/\(state.count)",
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

      case .numberFactResponse(let fact):
        state.isLoading = false
        state.numberFact = fact
        return .none

      case .numberFactFailed(let failure):
        state.isLoading = false
        state.errorMessage = failure.message
        return .none
      }
    }
  }
}
