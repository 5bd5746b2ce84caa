import ComposableCore
import Features
import JSON
import Testing
import Wire

@testable import StoreDaemon

/// A batch's life in one process (``TurnHarness``): what a client hears,
/// what the workers are asked, and what the journal refuses, step by step.
@Suite struct TurnTests {
  @Test func anAcknowledgementWaitsForItsBatchToBeCommitted() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("counter.incrementButtonTapped", id: 1, from: client)
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    #expect(try client.received().isEmpty)
    #expect(try harness.state(at: "/counter/count") == .int(2))
    harness.commit()
    let answers = try client.received()
    #expect(answers.map { $0[path: "type"] } == [.string("ack"), .string("ack")])
    #expect(answers.map { $0[path: "version"] } == [.int(1), .int(2)])
  }

  @Test func aSentActionIsAcknowledgedWithItsVersionAndVisibleInTheState() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    #expect(try harness.sendAlone("counter.incrementButtonTapped", id: 1, from: client) == .ack(id: 1, version: 1))
    #expect(
      try harness.ask(.get(id: 2, path: "/counter/count"), from: client)
        == .state(id: 2, version: 1, path: "/counter/count", value: .int(1)))
    let json: JSONValue = .object(["counter": .string("incrementButtonTapped")])
    #expect(try harness.sendAlone(action: json, id: 3, from: client) == .ack(id: 3, version: 2))
    #expect(try harness.state(at: "/counter/count") == .int(2))
    // The shape Foundation gives the same action, as format 1 journals hold it, is read too.
    let foundation: JSONValue = .object([
      "counter": .object(["_0": .object(["incrementButtonTapped": .object([:])])])
    ])
    #expect(try harness.sendAlone(action: foundation, id: 4, from: client) == .ack(id: 4, version: 3))
    #expect(try harness.state(at: "/counter/count") == .int(3))
  }

  /// An action sent again (taken from the daemon's memo of sent actions),
  /// or written as JSON instead of a path (read afresh), is journaled and
  /// published exactly as the first one was.
  @Test func aRepeatedActionIsJournaledAndPublishedAsTheFirst() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let watcher = try harness.connect("watcher")
    harness.request(.subscribe(id: 1, path: "", since: nil), from: watcher)
    _ = try watcher.messages()
    let client = try harness.connect()
    #expect(try harness.sendAlone("cart.addItem", ["3"], id: 1, from: client) == .ack(id: 1, version: 1))
    #expect(try harness.sendAlone("cart.addItem", ["3"], id: 2, from: client) == .ack(id: 2, version: 2))
    var diffs = try watcher.messages()
    guard case .diff(_, let action, let summary, _)? = diffs.first else {
      Issue.record("expected a diff")
      return
    }
    #expect(summary == "cart.addItem 3")
    #expect(try harness.sendAlone(action: action, id: 3, from: client) == .ack(id: 3, version: 3))
    for id in 4...5 {
      guard case .error(id, _, _)? = try harness.sendAlone("cart.addItem", ["three"], id: id, from: client) else {
        Issue.record("'cart.addItem three' must be refused")
        continue
      }
    }
    diffs = Array(diffs.dropFirst()) + (try watcher.messages())
    #expect(diffs.count == 2)
    for (version, diff) in zip(2...3, diffs) {
      guard case .diff(let got, let again, let text, _) = diff else {
        Issue.record("expected a diff")
        return
      }
      #expect(got == UInt64(version))
      #expect(again == action)
      #expect(text == summary)
    }
    let log = try harness.ask(.log(id: 6, since: 0, last: nil, follow: false), from: client)
    guard case .log(6, let records, _, _)? = log else {
      Issue.record("expected the log, got \(String(describing: log))")
      return
    }
    #expect(records.map(\.action) == [action, action, action])
    #expect(try harness.state(at: "/cart/items/0/quantity") == .int(3))
  }

  @Test func anEffectStartsOnlyOnceItsBatchIsDurableAndItsReplyIsReduced() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("dice.view.rollButtonTapped", id: 1, wait: true, from: client)
    #expect(harness.workers.started.isEmpty)
    harness.commit()
    let started = try #require(harness.workers.started.first)
    guard case .timer = started.request else {
      Issue.record("the roll asked for \(started.request), not a timer")
      return
    }
    #expect(try client.received().map { $0[path: "type"] } == [.string("ack")])
    harness.deliver(.timerFired(tick: 1), to: started.id)
    harness.commit()
    let answers = try client.received()
    #expect(answers.map { $0[path: "type"] } == [.string("settled")])
    #expect(try harness.state(at: "/dice/isRolling") == .bool(false))
  }

  /// What is committed is in the journal, each record with the time the
  /// harness's clock said, and the sender and origin it came with.
  @Test func theCommittedRecordsCarryTheScriptedClocksTimeAndTheirSender() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect("clock")
    harness.send("counter.incrementButtonTapped", id: 1, from: client)
    harness.commit()
    harness.now += 500
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    harness.commit()
    let records = try harness.turn.committer.journal.reader.records(from: 1, through: 2)
    #expect(records.map(\.time) == [1_000_000, 1_000_500])
    #expect(records.map { $0.origin[path: "client"] } == [.string("clock"), .string("clock")])
    #expect(records.map { $0.origin[path: "origin"] } == [.int(1), .int(2)])
  }

  @Test func anActionThatReachesNothingIsRefusedAndUsesNoVersion() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    harness.send("inventory.destination.dismiss", id: 1, from: client)
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    harness.commit()
    let answers = try client.received()
    #expect(answers.map { $0[path: "type"] } == [.string("error"), .string("ack")])
    #expect(answers.last?[path: "version"] == .int(1))
  }

  @Test func unknownActionsAndWrongArgumentsAreRejectedWithSuggestions() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    /// The refusal of a send, which must be `invalid_action`.
    func refusal(_ answer: ServerMessage?) -> String? {
      guard case .error(_, .invalidAction, let message)? = answer else { return nil }
      return message
    }
    #expect(refusal(try harness.sendAlone("cart.addItm", ["3"], id: 1, from: client))?.contains("cart.addItem") == true)
    #expect(refusal(try harness.sendAlone("cart.addItem", ["three"], id: 2, from: client))?.contains("three") == true)
    #expect(refusal(try harness.sendAlone("cart.addItem", id: 3, from: client)) != nil)
    let nonsense: JSONValue = .object(["cart": .string("nonsense")])
    #expect(
      refusal(try harness.sendAlone(action: nonsense, id: 4, from: client))?.contains("tcactl actions") == true)
    #expect(harness.turn.store.version == 0)
  }

  @Test func aRefusedBatchIsUndoneAndItsSendersAreTold() throws {
    let harness = try TurnHarness<HarnessedSeedApps>(syncPolicy: .always)
    let client = try harness.connect()
    harness.send("counter.incrementButtonTapped", id: 1, from: client)
    harness.commit()
    #expect(try client.received().map { $0[path: "type"] } == [.string("ack")])
    harness.turn.committer.failNextSyncForTesting()
    harness.send("counter.incrementButtonTapped", id: 2, from: client)
    harness.commit()
    let refusal = try #require(try client.received().first)
    #expect(refusal[path: "type"] == .string("error"))
    #expect(refusal[path: "code"] == .string("journal"))
    #expect(try harness.state(at: "/counter/count") == .int(1))
    #expect(harness.turn.store.version == 1)
  }
}

/// Watchers of the whole state or of a part, in one process: what the
/// daemon's process tests showed through real sockets, on the harness.
@Suite struct TurnWatcherTests {
  @Test func aWatcherRebuildsTheStateExactlyFromSnapshotAndPatches() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let watcher = try harness.connect("watcher")
    harness.request(.subscribe(id: 1, path: "", since: nil), from: watcher)
    guard case .snapshot(0, "", var document, nil)? = try watcher.messages().first else {
      Issue.record("a subscription must start with a snapshot at version 0")
      return
    }
    let sender = try harness.connect("sender")
    let paths: [(String, [String])] = [
      ("counter.incrementButtonTapped", []), ("cart.addItem", ["3"]), ("search.textChanged", [""]),
      ("bmi.input.binding.height", ["180"]), ("bmi.input.binding.weight", ["75"]), ("tabSelected", ["dice"]),
      ("counter.decrementButtonTapped", []), ("dice.view.viewFullHistoryTapped", []), ("dice.destination.dismiss", []),
    ]
    for (id, (path, arguments)) in paths.enumerated() {
      harness.send(path, arguments, id: id + 1, from: sender)
      // Some in one batch, some in batches of their own.
      if id % 3 == 2 { harness.commit() }
    }
    harness.commit()
    #expect(try sender.messages().map { if case .ack = $0 { true } else { false } } == paths.map { _ in true })
    var seen: [UInt64] = []
    for message in try watcher.messages() {
      guard case .diff(let version, _, _, let patch) = message else { continue }
      seen.append(version)
      document = try JSONPatch.apply(JSONPatch.operations(from: patch), to: document)
    }
    #expect(seen == Array(1...UInt64(paths.count)))
    #expect(document == (try harness.state(at: "")))
  }

  @Test func aPathFilteredWatcherSeesOnlyItsPart() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let watcher = try harness.connect("watcher")
    harness.request(.subscribe(id: 1, path: "/counter", since: nil), from: watcher)
    guard case .snapshot(_, "/counter", let snapshot, nil)? = try watcher.messages().first else {
      Issue.record("expected a snapshot of /counter")
      return
    }
    #expect(try JSONPointer("/count").value(in: snapshot) == .int(0))
    let sender = try harness.connect("sender")
    harness.send("dice.view.undoLastRoll", id: 1, from: sender)
    harness.send("tabSelected", ["bmi"], id: 2, from: sender)
    harness.send("counter.incrementButtonTapped", id: 3, from: sender)
    harness.commit()
    let diffs = try watcher.messages()
    guard diffs.count == 1, case .diff(let version, _, let summary, let patch) = diffs[0] else {
      Issue.record("expected the counter's diff alone, got \(diffs)")
      return
    }
    #expect(version == 3)
    #expect(summary == "counter.incrementButtonTapped")
    #expect(patch == .array([.object(["op": .string("replace"), "path": .string("/count"), "value": .int(1)])]))
  }

  @Test func aWatcherResumesFromAVersionItHas() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let sender = try harness.connect("sender")
    for id in 1...5 { harness.send("counter.incrementButtonTapped", id: id, from: sender) }
    harness.commit()
    let watcher = try harness.connect("watcher")
    harness.request(.subscribe(id: 1, path: "", since: 2), from: watcher)
    let messages = try watcher.messages()
    #expect(messages.first == .ack(id: 1, version: 2))
    let versions = messages.compactMap { message -> UInt64? in
      guard case .diff(let version, _, _, _) = message else { return nil }
      return version
    }
    #expect(versions == [3, 4, 5])

    let lost = try harness.connect("lost")
    harness.request(.subscribe(id: 1, path: "", since: 999), from: lost)
    guard case .error(1, .versionUnavailable, let message)? = try lost.messages().first else {
      Issue.record("a version after the daemon's must be refused, not answered with an older snapshot")
      return
    }
    #expect(message.hasPrefix("version 999 is after this daemon's version 5: "))
    // In another lineage (another epoch), the versions say nothing: a snapshot.
    let other = try harness.connect("other lineage")
    harness.request(.subscribe(id: 1, path: "", since: 999, epoch: "0123456789abcdef"), from: other)
    guard case .snapshot(5, "", _, .compacted)? = try other.messages().first else {
      Issue.record("a version of another epoch must give a snapshot with the 'compacted' notice")
      return
    }
  }

  /// A daemon that follows a replicated log may be behind the daemon a
  /// client resumes from: the subscription waits until it has caught up,
  /// and never goes back in time; past its wait it is refused.
  @Test func aResumeFromAVersionNotYetReachedWaitsForIt() throws {
    let harness = try TurnHarness<HarnessedSeedApps>(catchesUp: true)
    let sender = try harness.connect("sender")
    _ = try harness.sendAlone("counter.incrementButtonTapped", id: 1, from: sender)
    let watcher = try harness.connect("watcher")
    harness.request(.subscribe(id: 1, path: "", since: 3), from: watcher)
    #expect(try watcher.messages().isEmpty)
    _ = try harness.sendAlone("counter.incrementButtonTapped", id: 2, from: sender)
    #expect(try watcher.messages().isEmpty)
    _ = try harness.sendAlone("counter.incrementButtonTapped", id: 3, from: sender)
    _ = try harness.sendAlone("counter.incrementButtonTapped", id: 4, from: sender)
    let messages = try watcher.messages()
    #expect(messages.first == .ack(id: 1, version: 3))
    #expect(
      messages.dropFirst().map { message -> UInt64? in
        guard case .diff(let version, _, _, _) = message else { return nil }
        return version
      } == [4])
    // A second subscription on a waiting connection is refused as on a subscribed one.
    let impatient = try harness.connect("impatient")
    harness.request(.subscribe(id: 1, path: "", since: 10), from: impatient)
    harness.request(.subscribe(id: 2, path: "", since: nil), from: impatient)
    guard case .error(2, .alreadySubscribed, _)? = try impatient.messages().first else {
      Issue.record("a second subscription while one waits must be refused")
      return
    }
    // Past the wait, it is refused, and says how far the daemon got.
    harness.turn.publisher.resumeWait = .zero
    let late = try harness.connect("late")
    harness.request(.subscribe(id: 1, path: "", since: 10), from: late)
    harness.turn.publisher.sendHeartbeats()
    guard case .error(1, .versionUnavailable, let message)? = try late.messages().first else {
      Issue.record("a resume that waited past its limit must be refused")
      return
    }
    #expect(message.hasPrefix("this daemon has not reached version 10 within "))
    #expect(message.contains("(it is at 4)"))
  }

  @Test func aFilteredResumeAcrossAReplacementOfTheViewGetsASnapshot() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let sender = try harness.connect("sender")
    _ = try harness.sendAlone("search.textChanged", ["first"], id: 1, from: sender)
    _ = try harness.sendAlone("search.textChanged", ["second"], id: 2, from: sender)
    let watcher = try harness.connect("watcher")
    harness.request(.subscribe(id: 1, path: "/search/text", since: 1, epoch: harness.epoch), from: watcher)
    guard case .snapshot(2, "/search/text", .string("second"), .compacted)? = try watcher.messages().first else {
      Issue.record("a resume whose diffs replace the whole view must get a snapshot")
      return
    }
    let counterWatcher = try harness.connect("counter watcher")
    _ = try harness.sendAlone("counter.incrementButtonTapped", id: 3, from: sender)
    harness.request(.subscribe(id: 1, path: "/counter", since: 2, epoch: harness.epoch), from: counterWatcher)
    let messages = try counterWatcher.messages()
    #expect(messages.first == .ack(id: 1, version: 2))
    guard messages.count == 2, case .diff(3, _, _, let patch) = messages[1] else {
      Issue.record("expected the counter's diff")
      return
    }
    #expect(patch == .array([.object(["op": .string("replace"), "path": .string("/count"), "value": .int(1)])]))
  }

  /// Dismissing what is not presented is refused with `invalid_action`,
  /// by path and by JSON, an alert's too; no version is spent on it.
  /// Dismissing what is presented is applied.
  @Test func dismissingWhatIsNotPresentedIsRefused() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let client = try harness.connect()
    let dismissDice = "dice.destination.dismiss was not applied: nothing is presented at destination"
    harness.send("dice.destination.dismiss", id: 0, from: client)
    harness.send(action: .object(["dice": .object(["destination": .string("dismiss")])]), id: 1, from: client)
    harness.send("cart.alert.dismiss", id: 2, from: client)
    harness.send("parent.settings.dismiss", id: 3, from: client)
    harness.commit()
    let reasons = [
      dismissDice, dismissDice, "cart.alert.dismiss was not applied: nothing is presented at alert",
      "parent.settings.dismiss was not applied: nothing is presented at settings",
    ]
    let refusals = try client.messages()
    #expect(refusals.count == reasons.count)
    for (index, (refusal, reason)) in zip(refusals, reasons).enumerated() {
      guard case .error(index, .invalidAction, let message) = refusal else {
        Issue.record("request \(index) must be refused, got \(refusal)")
        continue
      }
      #expect(message.hasPrefix(reason), "\(message)")
      #expect(message.hasSuffix("no version was used"), "\(message)")
    }
    harness.send("dice.view.viewFullHistoryTapped", id: 10, from: client)
    harness.send("dice.destination.dismiss", id: 11, from: client)
    harness.commit()
    #expect(try client.messages() == [.ack(id: 10, version: 1), .ack(id: 11, version: 2)])
    #expect(try harness.state(at: "/dice/destination") == .null)
  }
}
