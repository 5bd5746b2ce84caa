import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

/// What storedaemon reduces after recovering its state from a crash: every
/// feature left waiting on a lost effect names its own recovery action
/// (`recoveryActions(for:)`, gathered through the root's scopes), and with
/// none waiting there is none; the root's `recovered`, which old journals
/// hold, sends the same actions.
@Suite struct AppFeatureRecoveryTests {
  typealias Fixtures = OnlineStoreFixtures

  /// Reduces `recovered` on `state` outside any store and checks that it is a
  /// no-op: storedaemon skips it exactly when `recoveryActions(for:)` is empty.
  func expectRecoveredDoesNothing(to state: AppFeature.State, sourceLocation: Testing.SourceLocation = #_sourceLocation)
  {
    var copy = state
    let effect = AppFeature().reduce(into: &copy, action: .recovered)
    #expect(copy == state, "recovered changed the state", sourceLocation: sourceLocation)
    #expect(effect.isNone, "recovered returned an effect", sourceLocation: sourceLocation)
    #expect(AppFeature().recoveryActions(for: state).isEmpty, sourceLocation: sourceLocation)
  }

  @Test func recoveredOnTheInitialStateDoesNothing() {
    expectRecoveredDoesNothing(to: AppFeature.State())
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    store.send(.recovered)
    store.expectInFlight([])
  }

  @Test func recoveredAfterCompletedWorkDoesNothing() throws {
    let store = TestStore(
      initialState: AppFeature.State(),
      reducer: { AppFeature() },
      withDependencies: {
        $0.randomNumbers = .constant(4)
        $0.uuid = .incrementing()
        $0.date = .constant(BMIFixtures.now)
      })
    store.exhaustivity = .off
    // A fact, a roll, the live catalog, a placed order, the profile, a saved
    // BMI with its history, and a search: each finished.
    store.send(.counter(.numberFactButtonTapped))
    store.respond(to: store.inFlight[0].id, with: .http(HTTPResponse(status: 200, text: "0 is nothing.")))
    store.send(.dice(.view(.rollButtonTapped)))
    store.advance(by: Dice.rollDuration)
    store.send(.tabSelected(.products))
    store.respond(to: Fixtures.productsRequest, with: Fixtures.ok(Fixtures.productsJSON))
    store.send(.cart(.addItem(3)))
    store.send(.cart(.payButtonTapped))
    store.send(.cart(.alert(.presented(.confirmPurchase))))
    store.respond(to: store.inFlight[0].id, with: Fixtures.ok(#"{"id":11}"#))
    store.send(.tabSelected(.profile))
    store.respond(to: Fixtures.profileRequest, with: Fixtures.ok(Fixtures.userJSON))
    store.send(.bmi(.input(.binding(.set(\.height, "170")))))
    store.send(.bmi(.input(.binding(.set(\.weight, "70")))))
    store.send(.bmi(.input(.saveButtonTapped)))
    store.respond(to: store.inFlight[0].id, with: .storage(.stored))
    store.respond(
      to: .storage(.list(namespace: "bmi-history")),
      with: .storage(.documents([BMIFixtures.document(BMIFixtures.firstID.uuidString, BMIFixtures.savedJSON)])))
    store.send(.search(.textChanged("cat")))
    store.advance(by: .seconds(2))
    store.respond(
      to: GIFSearchFixtures.search("cat"), with: try GIFSearchFixtures.found([GIFSearchFixtures.gif("cat1")]))
    store.skipReceivedActions()
    store.expectInFlight([])

    let state = store.state
    #expect(state.dice.currentRoll == 4)
    #expect(state.products.status == .loaded)
    #expect(state.cart.orderStatus == .placed(orderID: 11))
    #expect(state.profile.status == .loaded)
    #expect(state.bmi.history.records == [BMIFixtures.saved])
    #expect(state.search.results.count == 1)
    expectRecoveredDoesNothing(to: state)
    store.exhaustivity = .on
    store.send(.recovered)
    store.expectInFlight([])
  }

  @Test func recoveredAfterFailuresDoesNothing() {
    let state = AppFeature.State(
      counter: Counter.State(errorMessage: "connection refused"),
      dice: Dice.State(errorMessage: "The die could not be rolled: no timer worker is running"),
      products: ProductList.State(status: .failed("connection refused")),
      cart: Cart.State(orderStatus: .failed("connection refused")),
      profile: Profile.State(status: .failed("connection refused")),
      bmi: BMI.State(input: BMIInput.State(saveStatus: .failed("Could not save your BMI: disk full"))),
      search: GIFSearch.State(text: "cat", query: "cat", errorMessage: "Could not connect to the GIF service."))
    expectRecoveredDoesNothing(to: state)
  }

  @Test func everyFeatureWaitingGetsItsOwnRecoveryAction() {
    // One jacket being ordered from the bundled catalog while the live one loads.
    let sendingCart = Cart.State(
      items: [CartItem(product: Product.bundledCatalog[2], quantity: 1)], orderStatus: .sending)
    let loadingProducts = ProductList.State(status: .loading)
    let state = AppFeature.State(
      selectedTab: .cart,
      counter: Counter.State(count: 42, isLoading: true),
      dice: Dice.State(isRolling: true, rollAnimationAngle: 360),
      products: loadingProducts,
      cart: sendingCart,
      profile: Profile.State(status: .loading),
      bmi: BMI.State(
        input: BMIInput.State(height: "170", weight: "70", saveStatus: .saving, recordBeingSaved: BMIFixtures.saved),
        history: BMIHistory.State(isLoading: true)),
      search: GIFSearch.State(text: "cat"))
    #expect(
      AppFeature().recoveryActions(for: state) == [
        .counter(.recovered), .dice(.internal(.recovered)), .products(.recovered), .cart(.recovered),
        .profile(.recovered), .bmi(.input(.recovered)), .bmi(.history(.recovered)), .search(.recovered),
      ])

    let store = TestStore(
      initialState: state, reducer: { AppFeature() }, withDependencies: { $0.randomNumbers = .constant(6) })
    // The root itself changes nothing: each feature does.
    store.send(.recovered)
    store.receive(.counter(.recovered))
    store.receive(.dice(.internal(.recovered)))
    store.receive(.products(.recovered))
    store.receive(.cart(.recovered)) {
      $0.cart.orderStatus = .failed(Cart.interruptedOrderMessage)
      $0.cart.alert = CartAlert.purchaseInterrupted(message: Cart.interruptedOrderMessage)
    }
    store.receive(.profile(.recovered))
    store.receive(.bmi(.input(.recovered)))
    store.receive(.bmi(.history(.recovered)))
    store.receive(.search(.recovered)) {
      $0.search.query = "cat"
      $0.search.isLoading = true
    }
    store.expectInFlight([
      .http(
        HTTPRequest(url: "http://numbers.test/42", headers: [HTTPHeader("Accept", "text/plain")], timeout: .seconds(15))
      ),
      .timer(.after(Dice.rollDuration)),
      Fixtures.productsRequest,
      Fixtures.profileRequest,
      .storage(
        .put(
          namespace: "bmi-history", key: BMIFixtures.firstID.uuidString, value: Data(BMIFixtures.savedJSON.utf8))),
      .storage(.list(namespace: "bmi-history")),
      GIFSearchFixtures.search("cat"),
    ])
    // The order was not sent again.
    #expect(
      !store.inFlight.contains { if case .http(let request) = $0.request { request.method == "POST" } else { false } })

    // The restarted roll lands as any roll.
    store.advance(by: Dice.rollDuration)
    store.receive(.dice(.internal(.rollCompleted(6)))) {
      $0.dice.isRolling = false
      $0.dice.currentRoll = 6
      $0.dice.rollHistory = [6]
    }
    store.skipInFlightEffects()
  }

  @Test func onlyTheFeaturesWaitingAreSentTheirRecoveryAction() {
    let state = AppFeature.State(
      products: ProductList.State(status: .loaded, rows: Fixtures.rows()),
      profile: Profile.State(status: .loading))
    #expect(AppFeature().recoveryActions(for: state) == [.profile(.recovered)])
    let store = TestStore(initialState: state) { AppFeature() }
    store.send(.recovered)
    store.receive(.profile(.recovered))
    store.expectInFlight([Fixtures.profileRequest])
    store.respond(to: Fixtures.profileRequest, with: Fixtures.ok(Fixtures.userJSON))
    store.receive(.profile(.profileResponse(UserProfile.sample))) {
      $0.profile.status = .loaded
      $0.profile.profile = UserProfile.sample
    }
    // Recovered twice: the second time nothing waits.
    expectRecoveredDoesNothing(to: store.state)
  }
}
