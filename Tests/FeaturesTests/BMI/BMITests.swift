import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

/// The whole calculator: a confirmed save switches to the history and reloads
/// it; choosing the history tab reloads it too.
@Suite struct BMITests {
  func makeStore(_ state: BMI.State = BMI.State()) -> TestStore<BMI> {
    TestStore(initialState: state) {
      BMI()
    } withDependencies: {
      $0.uuid = .incrementing()
      $0.date = .constant(BMIFixtures.now)
    }
  }

  @Test func successfulSaveSwitchesToTheReloadedHistory() {
    let store = makeStore()
    store.send(.input(.binding(.set(\.height, "170")))) {
      $0.input.height = "170"
      $0.input.heightError = nil
    }
    store.send(.input(.binding(.set(\.weight, "70")))) {
      $0.input.weight = "70"
      $0.input.weightError = nil
      $0.input.result = BMIResult(height: 170, weight: 70)
    }
    store.send(.input(.saveButtonTapped)) {
      $0.input.saveStatus = .saving
      $0.input.recordBeingSaved = BMIFixtures.saved
    }
    store.respond(
      to: .storage(
        .put(
          namespace: "bmi-history", key: "00000000-0000-0000-0000-000000000000",
          value: Data(BMIFixtures.savedJSON.utf8))),
      with: .storage(.stored))
    store.receive(.input(.saved(BMIFixtures.saved))) {
      $0.input.saveStatus = .saved(BMIFixtures.saved)
      $0.input.recordBeingSaved = nil
      $0.input.alert = BMIInput.savedAlert
      $0.selectedTab = .history
    }
    store.receive(.history(.onAppear)) { $0.history.isLoading = true }
    store.respond(
      to: .storage(.list(namespace: "bmi-history")),
      with: .storage(
        .documents([
          BMIFixtures.olderDocument,
          BMIFixtures.document("00000000-0000-0000-0000-000000000000", BMIFixtures.savedJSON),
        ])))
    store.receive(.history(.loaded(records: [BMIFixtures.older, BMIFixtures.saved], unreadable: []))) {
      $0.history.isLoading = false
      $0.history.records = [BMIFixtures.saved, BMIFixtures.older]
    }
    store.send(.input(.alert(.presented(.okButtonTapped)))) {
      $0.input.saveStatus = .idle
      $0.input.alert = nil
    }
  }

  @Test func failedSaveStaysOnTheCalculator() {
    let store = makeStore(BMI.State(input: BMIInput.State(height: "170", weight: "70")))
    store.send(.input(.saveButtonTapped)) {
      $0.input.saveStatus = .saving
      $0.input.recordBeingSaved = BMIFixtures.saved
    }
    let failure = EffectFailure(.storage, "disk full")
    store.respond(to: store.inFlight[0].id, with: .failure(failure))
    store.receive(.input(.saveFailed(failure))) {
      $0.input.saveStatus = .failed(
        "Could not save your BMI. The request to the history's storage could not be sent.")
      $0.input.recordBeingSaved = nil
    }
  }

  @Test func tappingSaveWithInvalidInputStaysOnTheCalculator() {
    let store = makeStore(BMI.State(input: BMIInput.State(height: "170", weight: "")))
    store.send(.input(.saveButtonTapped))
    store.expectInFlight([])
  }

  @Test func choosingTheHistoryTabReloadsIt() {
    let store = makeStore()
    store.send(.tabSelected(.history)) { $0.selectedTab = .history }
    store.receive(.history(.onAppear)) { $0.history.isLoading = true }
    store.respond(to: .storage(.list(namespace: "bmi-history")), with: .storage(.documents([])))
    store.receive(.history(.loaded(records: [], unreadable: []))) { $0.history.isLoading = false }
    store.send(.tabSelected(.input)) { $0.selectedTab = .input }
  }

  @Test func deleteFromTheHistoryTab() {
    let store = makeStore(
      BMI.State(history: BMIHistory.State(records: [BMIFixtures.saved]), selectedTab: .history))
    store.send(.history(.delete(id: BMIFixtures.saved.id))) { $0.history.records = [] }
    store.respond(
      to: .storage(.delete(namespace: "bmi-history", key: "00000000-0000-0000-0000-000000000000")),
      with: .storage(.deleted(existed: true)))
  }

  // MARK: After a restart

  @Test func recoveredRestartsTheSaveAndTheLoadThatWereInFlight() {
    let store = makeStore(
      BMI.State(
        input: BMIInput.State(height: "170", weight: "70", saveStatus: .saving, recordBeingSaved: BMIFixtures.saved),
        history: BMIHistory.State(isLoading: true)))
    store.send(.recovered)
    store.receive(.input(.recovered))
    store.receive(.history(.recovered))
    let put = EffectRequest.storage(
      .put(
        namespace: "bmi-history", key: "00000000-0000-0000-0000-000000000000", value: Data(BMIFixtures.savedJSON.utf8)))
    let list = EffectRequest.storage(.list(namespace: "bmi-history"))
    store.expectInFlight([put, list])
    store.respond(to: put, with: .storage(.stored))
    // The save lands as any save does: the history shows and reloads.
    store.receive(.input(.saved(BMIFixtures.saved))) {
      $0.input.saveStatus = .saved(BMIFixtures.saved)
      $0.input.recordBeingSaved = nil
      $0.input.alert = BMIInput.savedAlert
      $0.selectedTab = .history
    }
    store.receive(.history(.onAppear))
    store.expectInFlight([list])
    store.respond(to: list, with: .storage(.documents([BMIFixtures.newerDocument])))
    store.receive(.history(.loaded(records: [BMIFixtures.newer], unreadable: []))) {
      $0.history.isLoading = false
      $0.history.records = [BMIFixtures.newer]
    }
  }

  @Test func recoveredRestartsOnlyTheTabThatWaits() {
    let store = makeStore(BMI.State(history: BMIHistory.State(isLoading: true), selectedTab: .history))
    store.send(.recovered)
    store.receive(.history(.recovered))
    store.expectInFlight([.storage(.list(namespace: "bmi-history"))])
    store.skipInFlightEffects()
  }

  @Test func recoveredWithNothingInFlightDoesNothing() {
    let store = makeStore(
      BMI.State(
        input: BMIInput.State(
          height: "170", weight: "70", saveStatus: .saved(BMIFixtures.saved), alert: BMIInput.savedAlert),
        history: BMIHistory.State(records: [BMIFixtures.saved]), selectedTab: .history))
    #expect(!store.state.isAwaitingEffect)
    store.send(.recovered)
    store.expectInFlight([])
  }
}
