import ComposableCore

/// The customer's profile tab (seed 001): fetched over HTTP from
/// `GET {storeAPIBaseURL}/users/{userID}`, with loading and failure states.
public struct Profile: Reducer {
  public struct State: Equatable, Sendable, Codable {
    /// Whether the profile is loading, loaded, or failed to load (and why).
    public var status: StoreLoadStatus
    /// The profile, once loaded.
    public var profile: UserProfile?
    /// Whose profile to fetch: the store's signed-in customer.
    public var userID: Int

    public init(status: StoreLoadStatus = .idle, profile: UserProfile? = nil, userID: Int = 1) {
      self.status = status
      self.profile = profile
      self.userID = userID
    }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// Loads the profile (sent when the tab appears, and by Retry). Does
    /// nothing while loading or once loaded.
    case fetchProfile
    /// The profile arrived.
    case profileResponse(UserProfile)
    /// The profile could not be fetched or decoded; fetching again retries.
    case profileFailed(EffectFailure)
  }

  enum CancelID { case fetch }

  @Dependency(\.configuration) var configuration

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .fetchProfile:
        guard state.status.canFetch else { return .none }
        state.status = .loading
        let request = HTTPRequest.get(
          "\(configuration.storeAPIBaseURL)/users/\(state.userID)", timeout: configuration.requestTimeout)
        return .http(request, decoding: UserProfile.self) { result in
          switch result {
          case .success(let profile): .profileResponse(profile)
          case .failure(let failure): .profileFailed(failure)
          }
        }
        .cancellable(id: CancelID.fetch, cancelInFlight: true)

      case .profileResponse(let profile):
        state.status = .loaded
        state.profile = profile
        return .none

      case .profileFailed(let failure):
        state.status = .failed(failure.message)
        return .none
      }
    }
  }
}
