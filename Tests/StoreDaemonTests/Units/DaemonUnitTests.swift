import ComposableCore
import Dispatch
import Foundation
import Glibc
import Platform
import Synchronization
import TestSupport
import Testing
import Wire

@testable import SeedApps
@testable import StoreDaemon

@Suite(.ownThreads) struct RuntimePathTests {
  @Test func systemdDirectoriesComeFirst() {
    let environment = [
      "RUNTIME_DIRECTORY": "/run/storedaemon", "STATE_DIRECTORY": "/var/lib/storedaemon",
      "XDG_RUNTIME_DIR": "/run/user/1000",
    ]
    #expect(
      RuntimePaths.defaultSocket(name: "storedaemon", environment: environment) == "/run/storedaemon/storedaemon.sock")
    #expect(RuntimePaths.defaultStateDirectory(name: "storedaemon", environment: environment) == "/var/lib/storedaemon")
  }

  @Test func xdgDirectoriesComeNext() {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/home/a/.state", "HOME": "/home/a"]
    #expect(
      RuntimePaths.defaultSocket(name: "storedaemon", environment: environment)
        == "/run/user/1000/storedaemon/storedaemon.sock")
    #expect(
      RuntimePaths.defaultStateDirectory(name: "storedaemon", environment: environment) == "/home/a/.state/storedaemon")
  }

  @Test func perUserFallbacksNeedNoConfiguration() {
    #expect(
      RuntimePaths.defaultSocket(name: "storedaemon", environment: [:])
        == "/tmp/storedaemon-\(getuid())/storedaemon.sock")
    #expect(
      RuntimePaths.defaultStateDirectory(name: "storedaemon", environment: ["HOME": "/home/a"])
        == "/home/a/.local/state/storedaemon")
  }
}

@Suite(.ownThreads) struct DaemonOptionTests {
  @Test func parsesEveryOption() throws {
    let options = try DaemonOptions.parse(
      [
        "--socket", "/s", "--state-dir", "/d", "--allow-group", "tca", "--handshake-timeout", "0.5", "--heartbeat", "2",
        "--client-buffer", "65536", "--spin", "0", "--max-clients", "3", "--fsync", "every-second", "--repair",
        "--worker-timeout", "4", "--effectworker", "/w", "--log-level", "debug", "--lag-timeout", "30",
        "--write-timeout", "0.25", "--metrics", "127.0.0.1:9464",
      ],
      environment: [:], app: SeedApps.self)
    #expect(options.socketPath == "/s")
    #expect(options.stateDirectory == "/d")
    #expect(options.allowedGroup == "tca")
    #expect(options.handshakeTimeout == .milliseconds(500))
    #expect(options.heartbeatInterval == .seconds(2))
    #expect(options.outboxLimit == 65536)
    #expect(options.spin == .zero)
    #expect(options.maximumClients == 3)
    #expect(options.syncPolicy == .everySecond)
    #expect(options.repair)
    #expect(options.workerTimeout == .seconds(4))
    #expect(options.workerExecutable == "/w")
    #expect(options.logLevel == .debug)
    #expect(options.lagTimeout == .seconds(30))
    #expect(options.writeTimeout == .milliseconds(250))
    #expect(options.metricsListen?.host == "127.0.0.1")
    #expect(options.metricsListen?.port == 9464)
  }

  @Test(arguments: [
    (["--socket"], "--socket needs a value"),
    (["--frobnicate"], "unknown option '--frobnicate'"),
    (["--heartbeat", "soon"], "--heartbeat takes a number of seconds between 0.001 and 86400, got 'soon'"),
    (["--client-buffer", "10"], "--client-buffer takes a number of bytes between 4096 and 1073741824, got '10'"),
    (["--spin", "-1"], "--spin takes a number of microseconds between 0 and 10000, got '-1'"),
    (["--max-clients", "0"], "--max-clients takes a number between 1 and 100000, got '0'"),
    (["--fsync", "sometimes"], "--fsync takes always, every-second or never, got 'sometimes'"),
    (["--log-level", "loud"], "--log-level takes error, warning, info or debug, got 'loud'"),
    (["--max-tcp-clients", "5"], "--max-tcp-clients goes with --listen-tcp HOST:PORT"),
    (["--metrics", "9464"], "--metrics takes HOST:PORT, e.g. 127.0.0.1:9464 or 0.0.0.0:9464, got '9464'"),
    (
      ["--metrics", "127.0.0.1:99999"],
      "--metrics takes HOST:PORT, e.g. 127.0.0.1:9464 or 0.0.0.0:9464, got '127.0.0.1:99999'"
    ),
  ])
  func badArgumentsAreNamed(_ arguments: [String], _ message: String) {
    #expect {
      try DaemonOptions.parse(arguments, environment: [:], app: SeedApps.self)
    } throws: { error in
      "\(error)" == message
    }
  }
}

@Suite(.ownThreads) struct PeerPolicyTests {
  let policy = PeerPolicy(ownerUID: 1000, allowedGroup: nil)

  @Test func ownerAndRootAreAllowed() {
    #expect(policy.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000)))
    #expect(policy.allows(PeerCredentials(pid: 1, uid: 0, gid: 0)))
  }

  @Test func othersAreRefusedWithAReasonThatSaysWhatToDo() {
    let stranger = PeerCredentials(pid: 1, uid: 1001, gid: 1001)
    #expect(!policy.allows(stranger))
    #expect(policy.refusal(for: stranger).contains("uid 1001 may not use this socket"))
    #expect(policy.refusal(for: stranger).contains("--allow-group"))
  }

  @Test func membersOfTheAllowedGroupAreAllowed() {
    let grouped = PeerPolicy(ownerUID: 1000, allowedGroup: ("tca", 2000))
    #expect(grouped.allows(PeerCredentials(pid: 1, uid: 1001, gid: 2000)))
    #expect(!grouped.allows(PeerCredentials(pid: 1, uid: 1001, gid: 1001)))
  }
}

@Suite(.ownThreads) struct DiffHistoryTests {
  func change(_ version: UInt64, bytes: Int = 10) -> DiffHistory.Change {
    DiffHistory.Change(version: version, action: .null, summary: "", patch: [], byteCount: bytes)
  }

  @Test func resumesInsideTheWindowOnly() {
    var history = DiffHistory(capacity: 3)
    for version in 1...5 { history.append(change(UInt64(version))) }
    #expect(history.changes(after: 5, upTo: 5)?.isEmpty == true)
    #expect(history.changes(after: 2, upTo: 5)?.map(\.version) == [3, 4, 5])
    #expect(history.changes(after: 4, upTo: 5)?.map(\.version) == [5])
    #expect(history.changes(after: 1, upTo: 5) == nil)
    #expect(history.changes(after: 9, upTo: 5) == nil)
  }

  @Test func largeChangesAreDroppedToStayWithinTheByteBudget() {
    var history = DiffHistory(capacity: 100, byteBudget: 1000)
    for version in 1...10 { history.append(change(UInt64(version), bytes: 300)) }
    #expect(history.changes(after: 7, upTo: 10)?.map(\.version) == [8, 9, 10])
    #expect(history.changes(after: 6, upTo: 10) == nil)
  }

  @Test func everyResumePointIsAnsweredWithoutTrapping() {
    var history = DiffHistory(capacity: 5)
    for version in 1...200 {
      history.append(change(UInt64(version)))
      for since in 0...UInt64(version + 2) {
        let answer = history.changes(after: since, upTo: UInt64(version))
        let held = since < UInt64(version) && since + 5 >= UInt64(version)
        if held {
          #expect(answer?.map(\.version) == Array((since + 1)...UInt64(version)))
        } else if since == UInt64(version) {
          #expect(answer?.isEmpty == true)
        } else {
          #expect(answer == nil)
        }
      }
    }
    history.removeAll()
    #expect(history.changes(after: 3, upTo: 200) == nil)
  }
}

/// What an outbox queues, refuses and drops: frames are held (as by an
/// open batch) so that they wait, and what it writes is read from the
/// other end of a real socket.
@Suite(.ownThreads) struct OutboxTests {
  typealias Pair = OutboxWritingTests.Pair

  @Test func refusesPastTheLimitAndDropsOnlyDroppableFrames() {
    let pair = Pair()
    let outbox = Outbox(limit: 10, writingTo: pair.near)
    outbox.hold(batch: 1)
    #expect(outbox.offer([UInt8](repeating: 1, count: 6), droppable: true))
    #expect(outbox.offer([2, 2, 2], droppable: false))
    #expect(!outbox.offer([3, 3, 3], droppable: true))
    let before = outbox.lastTakenAt
    #expect(outbox.dropDroppable() == 6)
    outbox.release(batch: 1)
    #expect(pair.read() == [2, 2, 2])
    #expect(outbox.lastTakenAt > before)
    outbox.finish()
    #expect(!outbox.offer([4], droppable: false), "nothing is taken once finished")
  }

  /// Answers are never refused and are counted apart: they neither push
  /// out nor block unsolicited frames; once they fill the limit the outbox
  /// says so, and tells when enough of them are written.
  @Test func answersAreCountedApartAndSayWhenTheyHaveRoomAgain() {
    let pair = Pair()
    let outbox = Outbox(limit: 4, writingTo: pair.near)
    outbox.hold(batch: 1)
    outbox.offerAnswer([1, 1, 1])
    #expect(!outbox.answersAreFull)
    outbox.offerAnswer([2, 2, 2])
    #expect(outbox.answersAreFull)
    #expect(outbox.offer([3, 3, 3], droppable: true), "answers do not count against diffs")
    #expect(!outbox.offer([4, 4], droppable: false))
    var room = 0
    outbox.whenRoom { room += 1 }
    #expect(room == 0)
    #expect(outbox.dropDroppable() == 3)
    #expect(room == 0, "dropping diffs makes no room for answers")
    outbox.release(batch: 1)
    #expect(pair.read() == [1, 1, 1, 2, 2, 2])
    #expect(room == 1)
    #expect(!outbox.answersAreFull)
    outbox.offerAnswer([5])
    #expect(pair.read() == [5])
    #expect(room == 1, "the callback is made once")
  }

  @Test func heldFramesWaitForReleaseAndCanBeDiscarded() {
    let pair = Pair()
    let outbox = Outbox(limit: 100, writingTo: pair.near)
    #expect(outbox.offer([1], droppable: false))
    outbox.hold(batch: 1)
    #expect(outbox.offer([2], droppable: true))
    #expect(outbox.offer([3], droppable: false))
    #expect(pair.read() == [1])
    // Dropping droppable frames keeps the hold on what remains.
    #expect(outbox.dropDroppable() == 1)
    #expect(pair.read(waiting: 50).isEmpty)
    outbox.release(batch: 1)
    #expect(pair.read() == [3])

    outbox.hold(batch: 1)
    #expect(outbox.offer([4], droppable: false))
    #expect(outbox.offer([5], droppable: true))
    #expect(outbox.discardHeld(from: 1) == 2)
    #expect(outbox.offer([6], droppable: false))
    outbox.finish()
    #expect(pair.read() == [6])
    #expect(outbox.isEmpty)
  }

  @Test func aFinishedOutboxDrainsOnlyOnceItsHeldFramesAreWritten() {
    let pair = Pair()
    let outbox = Outbox(limit: 100, writingTo: pair.near)
    var drained = false
    outbox.onChange = { change in if case .drained = change { drained = true } }
    outbox.hold(batch: 1)
    #expect(outbox.offer([7], droppable: false))
    outbox.finish()
    #expect(!drained, "the held frame is still owed")
    outbox.release(batch: 1)
    #expect(drained)
    #expect(pair.read() == [7])
  }

  @Test func aLargeFrameStillGoesThroughAnEmptyQueue() {
    let pair = Pair()
    let outbox = Outbox(limit: 4, writingTo: pair.near)
    outbox.hold(batch: 1)
    #expect(outbox.offer([UInt8](repeating: 0, count: 100), droppable: true))
    outbox.release(batch: 1)
    #expect(pair.read().count == 100)
  }
}
