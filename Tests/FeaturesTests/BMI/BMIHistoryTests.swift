import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import Testing

@testable import Features

/// The history: loading from storage (newest first, unreadable documents
/// skipped and named) and deleting.
@Suite struct BMIHistoryTests {
  let list = EffectRequest.storage(.list(namespace: "bmi-history"))

  @Test func loadSkipsAnUndecodableDocument() {
    let store = TestStore(initialState: BMIHistory.State()) { BMIHistory() }
    store.send(.onAppear) { $0.isLoading = true }
    let broken = BMIFixtures.document("00000000-0000-0000-0000-0000000000FF", #"{"height":170,"weight":70}"#)
    store.respond(
      to: list,
      with: .storage(.documents([BMIFixtures.olderDocument, broken, BMIFixtures.newerDocument])))
    let older = BMIRecord(id: UUID(counting: 10), height: 180, weight: 90, date: BMIFixtures.yesterday)
    let newer = BMIRecord(id: UUID(counting: 11), height: 160, weight: 45, date: BMIFixtures.now)
    store.receive(
      .loaded(records: [older, newer], unreadable: ["00000000-0000-0000-0000-0000000000FF: missing field 'id'"])
    ) {
      $0.isLoading = false
      $0.records = [newer, older]
      $0.unreadableMessage =
        "1 saved entry could not be read and was skipped: 00000000-0000-0000-0000-0000000000FF: missing field 'id'."
    }
    store.send(.dismissMessages) { $0.unreadableMessage = nil }
  }

  @Test func loadNamesEveryUnreadableDocument() {
    let store = TestStore(initialState: BMIHistory.State()) { BMIHistory() }
    store.send(.onAppear) { $0.isLoading = true }
    let notJSON = BMIFixtures.document("a", "170 cm, 70 kg")
    let wrongKey = BMIFixtures.document(
      "b", #"{"date":"2023-11-14T22:13:20Z","height":170,"id":"00000000-0000-0000-0000-000000000001","weight":70}"#)
    let wrongType = BMIFixtures.document(
      "c", #"{"date":"2023-11-14T22:13:20Z","height":"tall","id":"00000000-0000-0000-0000-000000000002","weight":70}"#)
    store.respond(to: list, with: .storage(.documents([notJSON, wrongKey, wrongType, BMIFixtures.newerDocument])))
    let unreadable = [
      "a: not valid JSON",
      "b: its id 00000000-0000-0000-0000-000000000001 does not match its key",
      "c: field 'height' is not Double",
    ]
    store.receive(.loaded(records: [BMIFixtures.newer], unreadable: unreadable)) {
      $0.isLoading = false
      $0.records = [BMIFixtures.newer]
      $0.unreadableMessage =
        "3 saved entries could not be read and were skipped: " + unreadable.joined(separator: "; ") + "."
    }
  }

  /// A key the storage worker lists twice is read once and named; a record
  /// that comes twice in the action (a journal's, replayed) is listed once:
  /// neither stops the daemon.
  @Test func aRecordListedTwiceIsShownOnce() {
    let store = TestStore(initialState: BMIHistory.State()) { BMIHistory() }
    store.send(.onAppear) { $0.isLoading = true }
    store.respond(to: list, with: .storage(.documents([BMIFixtures.newerDocument, BMIFixtures.newerDocument])))
    let twice = "\(BMIFixtures.newer.id.uuidString): listed twice by the storage worker (the first is kept)"
    store.receive(.loaded(records: [BMIFixtures.newer], unreadable: [twice])) {
      $0.isLoading = false
      $0.records = [BMIFixtures.newer]
      $0.unreadableMessage = "1 saved entry could not be read and was skipped: \(twice)."
    }
    store.send(.loaded(records: [BMIFixtures.older, BMIFixtures.newer, BMIFixtures.older], unreadable: [])) {
      $0.records = [BMIFixtures.newer, BMIFixtures.older]
      $0.unreadableMessage = nil
    }
  }

  @Test func loadReplacesTheListAndClearsOldMessages() {
    let store = TestStore(
      initialState: BMIHistory.State(records: [BMIFixtures.older], unreadableMessage: "1 saved entry …")
    ) { BMIHistory() }
    store.send(.onAppear) { $0.isLoading = true }
    store.respond(to: list, with: .storage(.documents([BMIFixtures.newerDocument])))
    store.receive(.loaded(records: [BMIFixtures.newer], unreadable: [])) {
      $0.isLoading = false
      $0.records = [BMIFixtures.newer]
      $0.unreadableMessage = nil
    }
  }

  @Test func loadFailureKeepsTheList() {
    let store = TestStore(initialState: BMIHistory.State(records: [BMIFixtures.older])) { BMIHistory() }
    store.send(.onAppear) { $0.isLoading = true }
    let failure = EffectFailure(.workerUnavailable, "the storage worker is down")
    store.respond(to: list, with: .failure(failure))
    store.receive(.loadFailed(failure)) {
      $0.isLoading = false
      $0.errorMessage =
        "Could not load the history. The history's storage cannot be reached right now. Try again shortly."
    }
    store.send(.dismissMessages) { $0.errorMessage = nil }
  }

  @Test func reloadCancelsTheLoadInFlight() {
    let store = TestStore(initialState: BMIHistory.State()) { BMIHistory() }
    store.send(.onAppear) { $0.isLoading = true }
    let first = store.inFlight[0].id
    store.send(.onAppear)
    #expect(store.inFlight.count == 1)
    #expect(store.inFlight[0].id != first)
    store.respond(to: list, with: .storage(.documents([])))
    store.receive(.loaded(records: [], unreadable: [])) { $0.isLoading = false }
  }

  @Test func deleteRemovesTheEntryFromStateAndStorage() {
    let store = TestStore(
      initialState: BMIHistory.State(records: [BMIFixtures.newer, BMIFixtures.older])
    ) { BMIHistory() }
    store.send(.delete(id: BMIFixtures.newer.id)) { $0.records = [BMIFixtures.older] }
    store.respond(
      to: .storage(.delete(namespace: "bmi-history", key: "00000000-0000-0000-0000-00000000000B")),
      with: .storage(.deleted(existed: true)))
    store.expectInFlight([])
  }

  @Test func deleteFailurePutsTheEntryBack() {
    let store = TestStore(
      initialState: BMIHistory.State(records: [BMIFixtures.newer, BMIFixtures.saved, BMIFixtures.older])
    ) { BMIHistory() }
    store.send(.delete(id: BMIFixtures.saved.id)) { $0.records = [BMIFixtures.newer, BMIFixtures.older] }
    let failure = EffectFailure(.storage, "read-only file system")
    store.respond(
      to: .storage(.delete(namespace: "bmi-history", key: "00000000-0000-0000-0000-000000000000")),
      with: .failure(failure))
    store.receive(.deleteFailed(BMIFixtures.saved, failure)) {
      // `saved` and `newer` share a date; ids break the tie (…000 before …00B).
      $0.records = [BMIFixtures.saved, BMIFixtures.newer, BMIFixtures.older]
      $0.errorMessage = "Could not delete the entry. The request to the history's storage could not be sent."
    }
  }

  @Test func deleteOfAnUnknownIDDoesNothing() {
    let store = TestStore(initialState: BMIHistory.State(records: [BMIFixtures.older])) { BMIHistory() }
    store.send(.delete(id: BMIFixtures.newer.id))
    store.expectInFlight([])
  }

  // MARK: After a restart

  @Test func aLoadInFlightWhenStoredaemonStoppedListsAgain() {
    let store = TestStore(initialState: BMIHistory.State(records: [BMIFixtures.older], isLoading: true)) {
      BMIHistory()
    }
    store.send(.recovered)
    store.expectInFlight([list])
    store.respond(to: list, with: .storage(.documents([BMIFixtures.olderDocument, BMIFixtures.newerDocument])))
    store.receive(.loaded(records: [BMIFixtures.older, BMIFixtures.newer], unreadable: [])) {
      $0.isLoading = false
      $0.records = [BMIFixtures.newer, BMIFixtures.older]
    }
  }

  @Test func recoveredWithNoLoadInFlightDoesNothing() {
    let store = TestStore(initialState: BMIHistory.State(records: [BMIFixtures.older])) { BMIHistory() }
    store.send(.recovered)
    store.expectInFlight([])
  }
}

/// What the history's rows show of each record is published in its view.
@Suite struct BMIHistoryPublishingTests {
  @Test func eachRowIsPublishedWithItsDateBMIAndCategory() throws {
    let record = BMIRecord(
      id: UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301")!, height: 180, weight: 100,
      date: Date(timeIntervalSince1970: 1_700_000_000))
    let state = BMIHistory.State(records: [record])
    let json = try JSONValueEncoder.encode(state)
    guard case .object(let members) = json, case .object(let view)? = members["view"] else {
      Issue.record("the history publishes no view: \(json)")
      return
    }
    #expect(
      view["rows"]
        == .array([
          .object([
            "id": .string("3F2504E0-4F89-41D3-9A0C-0305E82C3301"), "dateText": .string("14 Nov 2023, 22:13 UTC"),
            "bmiText": .string("30.9"), "category": .string("Obese"),
          ])
        ]))
    // The record itself is the document storage keeps: no view inside it.
    #expect(members["records"] == .array([try CanonicalJSON.value(of: record)]))
    #expect(try CanonicalJSON.decode(BMIHistory.State.self, from: json) == state)
  }
}
