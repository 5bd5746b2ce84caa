import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

@Suite struct ProfileTests {
  @Test func profileLoads() {
    let store = TestStore(initialState: Profile.State()) { Profile() }
    store.send(.fetchProfile) { $0.status = .loading }
    store.send(.fetchProfile)
    store.expectInFlight([OnlineStoreFixtures.profileRequest])
    store.respond(to: OnlineStoreFixtures.profileRequest, with: OnlineStoreFixtures.ok(OnlineStoreFixtures.userJSON))
    store.receive(.profileResponse(UserProfile.sample)) {
      $0.status = .loaded
      $0.profile = UserProfile.sample
    }
    #expect(store.state.profile?.name.displayName == "John Doe")
    store.send(.fetchProfile)
    store.expectInFlight([])
  }

  @Test func notFoundFailsAndRetrySucceeds() {
    let store = TestStore(initialState: Profile.State()) { Profile() }
    store.send(.fetchProfile) { $0.status = .loading }
    store.respond(to: OnlineStoreFixtures.profileRequest, with: .http(HTTPResponse(status: 404, text: "no such user")))
    let message = "GET https://store.test/users/1 answered 404"
    store.receive(.profileFailed(EffectFailure(.httpStatus, message, status: 404))) {
      $0.status = .failed("The store answered with status 404.")
    }

    store.send(.fetchProfile) { $0.status = .loading }
    store.respond(to: OnlineStoreFixtures.profileRequest, with: .http(try! HTTPResponse(json: UserProfile.sample)))
    store.receive(.profileResponse(UserProfile.sample)) {
      $0.status = .loaded
      $0.profile = UserProfile.sample
    }
  }

  @Test func connectionFailureFails() {
    let store = TestStore(initialState: Profile.State()) { Profile() }
    store.send(.fetchProfile) { $0.status = .loading }
    let failure = EffectFailure(.timeout, "GET https://store.test/users/1 took longer than 15000 ms")
    store.respond(to: OnlineStoreFixtures.profileRequest, with: .failure(failure))
    store.receive(.profileFailed(failure)) { $0.status = .failed("The store did not answer in time.") }
  }

  @Test func undecodableProfileFails() {
    let store = TestStore(initialState: Profile.State()) { Profile() }
    store.send(.fetchProfile) { $0.status = .loading }
    let body = #"{"id":1,"email":"john@gmail.com"}"#
    store.respond(to: OnlineStoreFixtures.profileRequest, with: OnlineStoreFixtures.ok(body))
    let message = OnlineStoreFixtures.decodingMessage(UserProfile.self, url: "https://store.test/users/1", body: body)
    store.receive(.profileFailed(EffectFailure(.decoding, message))) {
      $0.status = .failed("The store sent an answer that could not be read.")
    }
  }

  @Test func anotherUsersProfile() {
    let store = TestStore(initialState: Profile.State(userID: 7)) { Profile() }
    store.send(.fetchProfile) { $0.status = .loading }
    store.expectInFlight([.http(.get("https://store.test/users/7", timeout: .seconds(15)))])
    store.skipInFlightEffects()
  }

  @Test func namesAreCapitalized() {
    #expect(PersonName(firstname: "john", lastname: "DOE").displayName == "John Doe")
    #expect(PersonName(firstname: "mary ann", lastname: "").displayName == "Mary Ann")
    #expect(StorePriceFormat.dollars(109.95) == "$109.95")
    #expect(StorePriceFormat.dollars(22.3) == "$22.30")
    #expect(StorePriceFormat.dollars(-0.5) == "-$0.50")
  }

  // MARK: After a restart

  @Test func aProfileLoadingWhenStoredaemonStoppedIsFetchedAgain() {
    let store = TestStore(initialState: Profile.State(status: .loading)) { Profile() }
    store.send(.recovered)
    store.expectInFlight([OnlineStoreFixtures.profileRequest])
    store.respond(to: OnlineStoreFixtures.profileRequest, with: OnlineStoreFixtures.ok(OnlineStoreFixtures.userJSON))
    store.receive(.profileResponse(UserProfile.sample)) {
      $0.status = .loaded
      $0.profile = UserProfile.sample
    }
  }

  @Test(arguments: [StoreLoadStatus.idle, .loaded, .failed("connection refused")])
  func recoveredWithNoProfileLoadingDoesNothing(status: StoreLoadStatus) {
    let store = TestStore(initialState: Profile.State(status: status)) { Profile() }
    store.send(.recovered)
    store.expectInFlight([])
  }
}
