import ComposableCore

/// The customer's profile tab (seed 001): fetched over HTTP from
/// `GET {storeAPIBaseURL}/users/{userID}`, with loading and failure states.
/// If storedaemon restarts while it is loading, ``Action/recovered`` fetches it
/// again: a GET is safe to repeat.
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

    /// Whether the profile waits on an effect: it is loading.
    /// ``Action/recovered`` restarts what this covers.
    public var isAwaitingEffect: Bool { status.isLoading }
  }

  public enum Action: Equatable, Sendable, Codable {
    /// Loads the profile (sent when the tab appears, and by Retry). Does
    /// nothing while loading or once loaded.
    case fetchProfile
    /// The profile arrived.
    case profileResponse(UserProfile)
    /// The profile could not be fetched or decoded; fetching again retries.
    case profileFailed(EffectFailure)
    /// storedaemon recovered this state after stopping without finishing its
    /// effects; every effect that was in flight is gone. A profile that was
    /// loading is fetched again; otherwise nothing happens.
    case recovered
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
        return fetch(userID: state.userID)

      case .profileResponse(let profile):
        state.status = .loaded
        state.profile = profile
        return .none

      case .profileFailed(let failure):
        state.status = .failed(failure.sentence(about: Cart.serviceName))
        return .none

      case .recovered:
        guard state.isAwaitingEffect else { return .none }
        return fetch(userID: state.userID)
      }
    }
  }

  /// `GET {storeAPIBaseURL}/users/{userID}`, answered by ``Action/profileResponse(_:)``
  /// or ``Action/profileFailed(_:)``; it replaces the fetch in flight.
  private func fetch(userID: Int) -> Effect<Action> {
    let request = HTTPRequest.get(
      "\(configuration.storeAPIBaseURL)/users/\(userID)", timeout: configuration.requestTimeout)
    return .http(request, decoding: UserProfile.self) { result in
      switch result {
      case .success(let profile): .profileResponse(profile)
      case .failure(let failure): .profileFailed(failure)
      }
    }
    .cancellable(id: CancelID.fetch, cancelInFlight: true)
  }
}

extension Profile: RecoverableFeature {
  /// ``Action/recovered`` while an effect is awaited (``State/isAwaitingEffect``).
  public func recoveryAction(for state: State) -> Action? {
    state.isAwaitingEffect ? .recovered : nil
  }
}
