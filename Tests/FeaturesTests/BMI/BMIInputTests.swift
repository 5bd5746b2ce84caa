import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import Testing

@testable import Features

/// The calculator form: typing through bindings, and saving to storage.
@Suite struct BMIInputTests {
  func makeStore(_ state: BMIInput.State) -> TestStore<BMIInput> {
    TestStore(initialState: state) {
      BMIInput()
    } withDependencies: {
      $0.uuid = .incrementing()
      $0.date = .constant(BMIFixtures.now)
    }
  }

  @Test func emptyFormAsksForBothValues() {
    let state = BMIInput.State()
    #expect(state.heightError == "Enter your height in cm.")
    #expect(state.weightError == "Enter your weight in kg.")
    #expect(state.result == nil)
    #expect(!state.isSaveButtonEnabled)
  }

  @Test func typingComputesTheBMI() {
    let store = makeStore(BMIInput.State())
    store.send(.binding(.set(\.height, "170"))) {
      $0.height = "170"
      $0.heightError = nil
    }
    #expect(!store.state.isSaveButtonEnabled)
    store.send(.binding(.set(\.weight, "70"))) {
      $0.weight = "70"
      $0.weightError = nil
      $0.result = BMIResult(height: 170, weight: 70)
    }
    #expect(store.state.result?.formattedValue == "24.2")
    #expect(store.state.result?.category == .normal)
    #expect(store.state.isSaveButtonEnabled)
    store.send(.binding(.set(\.weight, "7o"))) {
      $0.weight = "7o"
      $0.weightError = "Weight must be a number, like 70 or 70.5."
      $0.result = nil
    }
    #expect(!store.state.isSaveButtonEnabled)
  }

  @Test func bindingToAnUnknownFieldIsReported() {
    let store = makeStore(BMIInput.State(height: "170", weight: "70"))
    withKnownIssue {
      store.send(.binding(BindingAction(field: "age", value: .string("30"))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("has no bindable field 'age'; expected one of: height, weight") }
    }
    #expect(store.state == BMIInput.State(height: "170", weight: "70"))
  }

  @Test func bindingOfTheWrongTypeIsReported() {
    let store = makeStore(BMIInput.State(height: "170", weight: "70"))
    withKnownIssue {
      store.send(.binding(BindingAction(field: "height", value: .int(180))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("height cannot be set to 180") }
    }
    #expect(store.state.height == "170")
  }

  @Test func saveStoresTheEntryAndConfirms() {
    let store = makeStore(BMIInput.State(height: "170", weight: "70"))
    store.send(.saveButtonTapped) {
      $0.saveStatus = .saving
      $0.recordBeingSaved = BMIFixtures.saved
    }
    #expect(!store.state.isSaveButtonEnabled)
    store.respond(
      to: .storage(
        .put(
          namespace: "bmi-history", key: "00000000-0000-0000-0000-000000000000",
          value: Data(BMIFixtures.savedJSON.utf8))),
      with: .storage(.stored))
    store.receive(.saved(BMIFixtures.saved)) {
      $0.saveStatus = .saved(BMIFixtures.saved)
      $0.recordBeingSaved = nil
      $0.alert = BMIInput.savedAlert
    }
    // The inputs stay, as in the seed, so the same entry can be adjusted.
    store.send(.dismissAlert) {
      $0.saveStatus = .idle
      $0.alert = nil
    }
  }

  @Test func saveFailureShowsTheError() {
    let store = makeStore(BMIInput.State(height: "170", weight: "70"))
    store.send(.saveButtonTapped) {
      $0.saveStatus = .saving
      $0.recordBeingSaved = BMIFixtures.saved
    }
    guard case .storage(.put(let namespace, let key, let value)) = store.inFlight.first?.request else {
      Issue.record("expected one storage put in flight")
      return
    }
    #expect(namespace == "bmi-history")
    #expect(key == "00000000-0000-0000-0000-000000000000")
    #expect(String(decoding: value, as: UTF8.self) == BMIFixtures.savedJSON)
    let failure = EffectFailure(.storage, "disk full")
    store.respond(to: store.inFlight[0].id, with: .failure(failure))
    store.receive(.saveFailed(failure)) {
      $0.saveStatus = .failed("Could not save your BMI. The request to the history's storage could not be sent.")
      $0.recordBeingSaved = nil
    }
    store.send(.dismissAlert) {
      $0.saveStatus = .idle
      $0.alert = nil
    }
    #expect(store.state.isSaveButtonEnabled)
  }

  /// A put whose answer is lost may have been stored: saving again would add
  /// a second entry, so the message says to check the history first.
  @Test(arguments: [
    (
      EffectFailure(
        .interrupted, "the storage worker (pid 42) was killed by signal 9 (Killed) after this request was handed to it"),
      "Could not save your BMI: the save's answer was lost, so it may or may not have been stored. Check the history "
        + "before saving again."
    ),
    (
      EffectFailure(.timeout, "the storage worker did not answer in time; the request was cancelled"),
      "Could not save your BMI: the save did not finish in time, so it may or may not have been stored. Check the history "
        + "before saving again."
    ),
  ])
  func aSaveWhoseAnswerIsLostMayHaveBeenStored(failure: EffectFailure, message: String) {
    let store = makeStore(BMIInput.State(height: "170", weight: "70"))
    store.send(.saveButtonTapped) {
      $0.saveStatus = .saving
      $0.recordBeingSaved = BMIFixtures.saved
    }
    store.respond(to: store.inFlight[0].id, with: .failure(failure))
    store.receive(.saveFailed(failure)) {
      $0.saveStatus = .failed(message)
      $0.recordBeingSaved = nil
    }
  }

  @Test func saveWithInvalidInputDoesNothing() {
    let store = makeStore(BMIInput.State(height: "170", weight: "0"))
    store.send(.saveButtonTapped)
    store.expectInFlight([])
  }

  @Test func secondTapWhileSavingIsIgnored() {
    let store = makeStore(BMIInput.State(height: "170", weight: "70"))
    store.send(.saveButtonTapped) {
      $0.saveStatus = .saving
      $0.recordBeingSaved = BMIFixtures.saved
    }
    store.send(.saveButtonTapped)
    #expect(store.inFlight.count == 1)
    store.respond(to: store.inFlight[0].id, with: .storage(.stored))
    store.receive(.saved(BMIFixtures.saved)) {
      $0.saveStatus = .saved(BMIFixtures.saved)
      $0.recordBeingSaved = nil
      $0.alert = BMIInput.savedAlert
    }
  }

  @Test func storedDocumentReadsBack() throws {
    let data = try BMIHistoryStorage.encode(BMIFixtures.saved)
    #expect(String(decoding: data, as: UTF8.self) == BMIFixtures.savedJSON)
    let document = StorageDocument(key: BMIFixtures.firstID.uuidString, value: data)
    #expect(try BMIHistoryStorage.decode(document) == BMIFixtures.saved)
  }

  // MARK: After a restart

  @Test func aSaveInFlightWhenStoredaemonStoppedStoresTheSameDocumentAgain() {
    let store = makeStore(
      BMIInput.State(height: "170", weight: "70", saveStatus: .saving, recordBeingSaved: BMIFixtures.saved))
    // A later clock and another UUID change nothing: the record is the one kept.
    store.dependencies.date = .constant(BMIFixtures.now.addingTimeInterval(60))
    store.dependencies.uuid = .constant(UUID(counting: 99))
    store.send(.recovered)
    let put = EffectRequest.storage(
      .put(
        namespace: "bmi-history", key: "00000000-0000-0000-0000-000000000000", value: Data(BMIFixtures.savedJSON.utf8)))
    store.expectInFlight([put])
    store.respond(to: put, with: .storage(.stored))
    store.receive(.saved(BMIFixtures.saved)) {
      $0.saveStatus = .saved(BMIFixtures.saved)
      $0.recordBeingSaved = nil
      $0.alert = BMIInput.savedAlert
    }
  }

  @Test func aRestartedSaveFailsAsAnySave() {
    let store = makeStore(
      BMIInput.State(height: "170", weight: "70", saveStatus: .saving, recordBeingSaved: BMIFixtures.saved))
    store.send(.recovered)
    let failure = EffectFailure(.workerUnavailable, "the storage worker is down")
    store.respond(to: store.inFlight[0].id, with: .failure(failure))
    store.receive(.saveFailed(failure)) {
      $0.saveStatus = .failed(
        "Could not save your BMI. The history's storage cannot be reached right now. Try again shortly.")
      $0.recordBeingSaved = nil
    }
  }

  @Test func aSaveWithoutItsRecordFailsRatherThanStoreADuplicate() throws {
    // A state kept by a storedaemon older than `recordBeingSaved` has no such
    // field, and decodes with it `nil`.
    let saving = BMIInput.State(height: "170", weight: "70", saveStatus: .saving)
    let old = try JSONEncoder().encode(saving)
    #expect(!String(decoding: old, as: UTF8.self).contains("recordBeingSaved"))
    let state = try JSONDecoder().decode(BMIInput.State.self, from: old)
    #expect(state == saving)
    let store = makeStore(state)
    store.send(.recovered) {
      $0.saveStatus = .failed(
        "Could not save your BMI: storedaemon restarted during the save, which may or may not have been stored. Check the history before saving again."
      )
    }
    store.expectInFlight([])
    #expect(store.state.isSaveButtonEnabled)
  }

  @Test(arguments: [BMISaveStatus.idle, .saved(BMIFixtures.saved), .failed("Could not save your BMI: disk full")])
  func recoveredWithNoSaveInFlightDoesNothing(status: BMISaveStatus) {
    // A saved status is shown with its alert, as the reducer leaves it.
    let alert: AlertState<BMIInput.Alert>? = if case .saved = status { BMIInput.savedAlert } else { nil }
    let store = makeStore(BMIInput.State(height: "170", weight: "70", saveStatus: status, alert: alert))
    store.send(.recovered)
    store.expectInFlight([])
  }

  /// Seed 002's "BMI Saved!" alert is state: its texts and its OK button.
  @Test func theSavedAlertIsTheSeedsAlert() throws {
    let json = CanonicalJSON.text(try JSONValueEncoder.encode(BMIInput.savedAlert))
    #expect(
      json
        == #"{"buttons":[{"action":"okButtonTapped","label":"OK","path":"okButtonTapped","role":"cancel"}],"#
        + #""message":"Your BMI has been saved to history.","title":"BMI Saved!"}"#)
  }

  /// A form saved before the alert was kept in state shows the alert its
  /// saved status stood for.
  @Test func aFormSavedBeforeTheAlertWasStateShowsIt() throws {
    let form = BMIInput.State(height: "170", weight: "70", saveStatus: .saved(BMIFixtures.saved))
    guard case .object(var members) = try JSONValueEncoder.encode(form) else { return }
    members["alert"] = nil
    let read = try CanonicalJSON.decode(BMIInput.State.self, from: .object(members))
    #expect(read.alert == BMIInput.savedAlert)
    #expect(read.saveStatus == .saved(BMIFixtures.saved))
  }

  /// A second save clears the first one's "BMI Saved!", and dismissing
  /// while it is under way keeps it under way, so that a crash meanwhile
  /// still stores the same record again.
  @Test func aSecondSaveClearsTheAlertAndDismissingKeepsItUnderWay() {
    let store = makeStore(
      BMIInput.State(height: "170", weight: "70", saveStatus: .saved(BMIFixtures.saved), alert: BMIInput.savedAlert))
    store.send(.saveButtonTapped) {
      $0.alert = nil
      $0.saveStatus = .saving
      $0.recordBeingSaved = BMIFixtures.saved
    }
    store.send(.dismissAlert)
    #expect(store.state.isAwaitingEffect)
    store.skipInFlightEffects()
  }
}
