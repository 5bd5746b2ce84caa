import ComposableCore
import Foundation
import Glibc
import JSON
import Testing
import Wire

@testable import StoreDaemon

/// What docs/PROTOCOL.md promises a client written from it alone: which
/// diffs a subscriber gets and resuming a part that went away, on the
/// daemon's turn in this process (``TurnHarness``); absent optionals as
/// `tcactl` prints them, and that answers are never a reason to drop a
/// client, against a real daemon.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ProtocolPromisesTests {
  static let protocolDocument: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The document with its lines joined, for looking up a sentence that a
  /// line break may cut.
  static let protocolProse = protocolDocument.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(
    separator: " ")

  /// A root subscriber sees every version, an empty patch for an action that
  /// changed nothing; a subscriber to a part sees only the changes to it.
  /// The document says both. On the daemon's turn in this process
  /// (``TurnHarness``), as the rest of this suite's resumes are.
  @Test func aRootSubscriberGetsEveryVersionAndAPartsSubscriberOnlyItsChanges() throws {
    #expect(Self.protocolDocument.contains("receives a `diff` for every version"))
    #expect(Self.protocolDocument.contains("receives only the `diff`s that change its part"))
    let harness = try TurnHarness<HarnessedSeedApps>()
    let root = try harness.connect("root")
    harness.request(.subscribe(id: 1, path: "", since: nil), from: root)
    let counter = try harness.connect("counter")
    harness.request(.subscribe(id: 1, path: "/counter", since: nil), from: counter)
    for watcher in [root, counter] {
      guard case .snapshot(0, _, _, nil)? = try watcher.messages().first else {
        Issue.record("expected a snapshot at version 0")
        return
      }
    }
    let sender = try harness.connect()
    #expect(try harness.sendAlone("bmi.input.binding.height", ["180"], id: 1, from: sender) == .ack(id: 1, version: 1))
    #expect(try harness.sendAlone("bmi.input.binding.height", ["180"], id: 2, from: sender) == .ack(id: 2, version: 2))
    #expect(try harness.sendAlone("counter.incrementButtonTapped", id: 3, from: sender) == .ack(id: 3, version: 3))

    let rootDiffs = try root.messages().compactMap { message -> (UInt64, JSONValue)? in
      guard case .diff(let version, _, _, let patch) = message else { return nil }
      return (version, patch)
    }
    #expect(rootDiffs.map(\.0) == [1, 2, 3])
    #expect(rootDiffs.count == 3 && rootDiffs[1].1 == .array([]), "the action that changed nothing has an empty patch")
    guard case .diff(let version, _, let summary, _)? = try counter.messages().first else {
      Issue.record("the counter's subscriber got no diff for the counter's change")
      return
    }
    #expect(version == 3, "the subscriber to /counter skips the versions that did not change it")
    #expect(summary == "counter.incrementButtonTapped")
  }

  /// Resuming a subscription to an element that a missed change removed is a
  /// `compacted` snapshot of null, as a live subscriber saw; a part that
  /// never existed is still refused.
  @Test func resumingAPartThatAMissedChangeRemovedIsACompactedNull() throws {
    let harness = try TurnHarness<HarnessedSeedApps>()
    let sender = try harness.connect()
    _ = try harness.sendAlone("cart.addItem", ["3"], id: 1, from: sender)
    guard case .ack(_, let before)? = try harness.sendAlone("cart.addItem", ["5"], id: 2, from: sender) else {
      Issue.record("the second item was not added")
      return
    }
    let live = try harness.connect("live")
    harness.request(.subscribe(id: 1, path: "/cart/items/1", since: nil), from: live)
    guard case .snapshot(_, _, let element, nil)? = try live.messages().first, element != .null else {
      Issue.record("the second item is not in the cart")
      return
    }
    _ = try harness.sendAlone("cart.removeItem", ["5"], id: 3, from: sender)
    guard case .diff(_, _, _, let patch)? = try live.messages().first else {
      Issue.record("the live subscriber heard nothing of the removal")
      return
    }
    #expect(patch == .array([.object(["op": .string("replace"), "path": .string(""), "value": .null])]))

    let resuming = try harness.connect("resuming")
    harness.request(.subscribe(id: 1, path: "/cart/items/1", since: before, epoch: harness.epoch), from: resuming)
    guard case .snapshot(_, let path, let value, let notice)? = try resuming.messages().first else {
      Issue.record("resuming a removed element must give a snapshot")
      return
    }
    #expect(path == "/cart/items/1")
    #expect(value == .null)
    #expect(notice == .compacted)

    let typo = try HarnessTransport(harness)
    try typo.send(
      #"{"type":"subscribe","id":1,"path":"/cart/nothing","since":\#(before),"epoch":"\#(harness.epoch)"}"#)
    guard case .error(1, .invalidPath, let message)? = try typo.read() else {
      Issue.record("a part that never existed must be refused")
      return
    }
    #expect(message.contains("no state at '/cart/nothing'"))
  }

  /// Resuming a part that names nothing now is refused unless the daemon
  /// holds the missed diffs and one of them may have removed it: from
  /// another epoch, from a version to come, or across diffs that only added
  /// to the list it names an element of. A part that exists is a
  /// `compacted` snapshot from such a version.
  @Test func resumingAPartThatNamesNothingIsRefusedUnlessAHeldDiffMayHaveRemovedIt() throws {
    #expect(Self.protocolProse.contains("so a part that was removed is `invalid_path` then, as a mistyped one is."))
    let harness = try TurnHarness<HarnessedSeedApps>()
    let sender = try harness.connect()
    #expect(try harness.sendAlone("cart.addItem", ["3"], id: 1, from: sender) == .ack(id: 1, version: 1))
    #expect(try harness.sendAlone("cart.addItem", ["5"], id: 2, from: sender) == .ack(id: 2, version: 2))
    let epoch = harness.epoch
    let otherEpoch = String(repeating: "0", count: epoch.utf8.count)
    var requests = 0
    /// Subscribes on a connection of its own; returns the first answer.
    func resume(_ path: String, since: UInt64, epoch: String) throws -> ServerMessage? {
      requests += 1
      let connection = try HarnessTransport(harness)
      try connection.send(
        #"{"type":"subscribe","id":\#(requests),"path":"\#(path)","since":\#(since),"epoch":"\#(epoch)"}"#)
      return try connection.read()
    }
    for (path, since, epoch) in [
      ("/cart/nothing", 1, otherEpoch), ("/cart/nothing", 99, epoch), ("/cart/items/5", 1, epoch),
      ("/cart/items/5", 0, otherEpoch),
    ] as [(String, UInt64, String)] {
      guard case .error(_, .invalidPath, let message)? = try resume(path, since: since, epoch: epoch) else {
        Issue.record("resuming \(path) since \(since) must be refused")
        continue
      }
      #expect(message.hasPrefix("no state at '\(path)'"), "\(message)")
    }
    guard
      case .snapshot(2, "/cart/items/1", let line, .compacted)? = try resume(
        "/cart/items/1", since: 1, epoch: otherEpoch)
    else {
      Issue.record("resuming a part that exists from another epoch must be a compacted snapshot")
      return
    }
    #expect(line[path: "quantity"] == .int(1))

    // Removing the first line leaves nothing at /cart/items/1.
    #expect(try harness.sendAlone("cart.removeItem", ["3"], id: 3, from: sender) == .ack(id: 3, version: 3))
    guard case .error(_, .invalidPath, _)? = try resume("/cart/items/1", since: 2, epoch: otherEpoch) else {
      Issue.record("a part that went away, resumed without the diffs that removed it, must be refused")
      return
    }
    guard case .snapshot(3, _, .null, .compacted)? = try resume("/cart/items/1", since: 2, epoch: epoch) else {
      Issue.record("a part that a held diff may have removed must be a compacted null")
      return
    }
  }

  /// Dismissing what is not presented is refused with `invalid_action`,
  /// by path and by JSON, an alert's too; no version is spent on it
  /// (TurnWatcherTests shows it on the in-memory harness). The document
  /// says so.
  @Test func dismissingWhatIsNotPresentedIsRefused() throws {
    #expect(
      Self.protocolDocument.contains(
        "`dice.destination.dismiss was not applied: nothing is presented at destination`"))
  }

  /// The journal records a client whose `hello` gave no name as `""`.
  @Test func aNamelessClientIsRecordedWithAnEmptyName() throws {
    #expect(Self.protocolProse.contains("`hello`, `\"\"` when it gave none)"))
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.send(#"{"type":"hello","protocol":1}"#)
    guard case .welcome? = try raw.read() else {
      Issue.record("a hello without a name must be welcome")
      return
    }
    try raw.send(#"{"type":"send","id":1,"path":"counter.incrementButtonTapped"}"#)
    #expect(try raw.read() == .ack(id: 1, version: 1))
    let records = try daemon.client().log(since: nil, last: 1).records
    #expect(records.first?.origin[path: "client"] == .string(""))
  }

  /// An action for an element that does not exist, or for a destination
  /// that is not presented, is refused with what is missing, and no version
  /// is spent on it.
  @Test func anActionThatReachesNothingIsRefusedAndSpendsNoVersion() throws {
    let daemon = try LoopDaemon()
    let row = try tcactl(["send", "products.rows[99].addToCart.plusButtonTapped"], socket: daemon.socketPath)
    #expect(row.status == 1)
    #expect(
      row.error.contains("products.rows[99].addToCart.plusButtonTapped was not applied: rows has no element with id 99")
    )
    #expect(row.error.contains("no version was used"))
    let closed = try tcactl(
      ["send", "dice.destination.presented.history.closeButtonTapped"], socket: daemon.socketPath)
    #expect(closed.status == 1)
    #expect(closed.error.contains("nothing is presented at destination"))
    #expect(try daemon.client().send(path: "counter.incrementButtonTapped") == 1)
  }

  /// An optional without a value is null, to `get` and to a subscriber.
  @Test func anAbsentOptionalIsNull() throws {
    let daemon = try LoopDaemon()
    let client = try daemon.client()
    #expect(try client.get(path: "/dice/destination").value == .null)
    let got = try tcactl(["get", "dice.destination"], socket: daemon.socketPath)
    #expect(got.status == 0)
    #expect(got.output == "null\n")
  }

  /// A client that pipelines many large requests and reads nothing for a
  /// while, then reads slowly, gets every answer in order and is not
  /// dropped, although its answers pass its buffer many times over.
  @Test func aClientThatReadsSlowlyGetsEveryAnswerToItsPipelinedRequests() throws {
    let daemon = try LoopDaemon(arguments: ["--client-buffer", "4096", "--write-timeout", "3600"])
    // The whole state, with the product catalog, is tens of kilobytes.
    let answerSize = CanonicalJSON.encode(try daemon.client().get().value).count
    let count = 200
    let reader = try RawConnection(daemon)
    try reader.hello()
    var frames: [UInt8] = []
    for id in 1...count { frames += try FrameEncoder.frame(Array(#"{"type":"get","id":\#(id)}"#.utf8)) }
    try reader.write(frames)
    var ids: [Int] = []
    while ids.count < count {
      switch try reader.read() {
      case .state(let id, _, _, _)?:
        ids.append(id)
        if ids.count % 20 == 0 { usleep(20_000) }  // a slow reader
      case let other?:
        Issue.record("expected only answers, got \(other)")
        return
      case nil:
        Issue.record("the daemon closed the client after \(ids.count) of \(count) answers of \(answerSize) bytes")
        return
      }
    }
    #expect(ids == Array(1...count))
    #expect(answerSize * count > 1 << 20, "the answers must pass the buffer and the socket's many times over")
  }

  /// A client that reads nothing is not closed for its answers: only the
  /// write timeout, which this test sets, ends it, with its requests unread
  /// and no last words (it would not read them).
  @Test func aClientThatReadsNothingIsClosedOnlyByTheWriteTimeout() throws {
    let writeTimeout = Duration.seconds(1)
    let daemon = try LoopDaemon(arguments: ["--client-buffer", "4096", "--write-timeout", "1"])
    let setup = try daemon.client()
    let stuck = try RawConnection(daemon)
    try stuck.hello()
    var frames: [UInt8] = []
    for id in 1...2000 { frames += try FrameEncoder.frame(Array(#"{"type":"get","id":\#(id)}"#.utf8)) }
    let sent = ContinuousClock.now
    try stuck.write(frames)
    try waitUntil("the client that reads nothing is closed") {
      guard case .object(let status) = try setup.status() else { return false }
      return status["clients"] == .int(1)
    }
    // The write that timed out began after the requests were sent: however
    // busy the machine, the close cannot come sooner.
    #expect(ContinuousClock.now - sent >= writeTimeout)
    // What it was sent before the close are answers, in order, and fewer
    // than it asked for: the rest were never read from its socket (so the
    // kernel may end the reading with a reset instead of an end of file).
    var messages: [ServerMessage] = []
    while let message = try? stuck.read() { messages.append(message) }
    let ids = messages.compactMap { if case .state(let id, _, _, _) = $0 { id } else { nil } }
    #expect(ids.count == messages.count, "only answers: \(messages.suffix(2))")
    #expect(ids == Array(1...ids.count))
    #expect(ids.count < 2000)
  }
}

extension DaemonProcess {
  /// The daemon's epoch, from its status.
  func epoch() throws -> String? {
    guard case .object(let status) = try client("epoch").status(), case .string(let epoch)? = status["epoch"] else {
      return nil
    }
    return epoch
  }
}
