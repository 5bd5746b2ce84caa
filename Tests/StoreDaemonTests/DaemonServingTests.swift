import ComposableCore
import Foundation
import Glibc
import JSON
import Synchronization
import Testing
import Wire

/// The daemon's main path with real processes and sockets: actions in,
/// acknowledgements with versions out, state and diffs to watchers. What
/// needs no process (an action's forms, a repeated action, a watcher's
/// snapshot and patches, a part's watcher, a resume) is shown on the
/// in-memory harness (TurnTests, TurnWatcherTests).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DaemonServingTests {
  @Test func concurrentSendersGetContiguousVersionsAndNothingIsLost() throws {
    let daemon = try LoopDaemon()
    let senders = 4
    let perSender = 150
    let versions = Mutex<[UInt64]>([])
    let failures = Mutex<[String]>([])
    let path = daemon.socketPath
    DispatchQueue.concurrentPerform(iterations: senders) { index in
      do {
        let client = try WireClient(path: path, clientName: "sender \(index)")
        for _ in 0..<perSender {
          let version = try client.send(path: "counter.incrementButtonTapped")
          versions.withLock { $0.append(version) }
        }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let all = versions.withLock { $0 }.sorted()
    #expect(all == Array(1...UInt64(senders * perSender)))
    #expect(try daemon.client().get(path: "/counter/count").value == .int(senders * perSender))
  }

  /// Actions pipelined on a connection that also watches the root land in
  /// batches of several; the batch's diffs go to root watchers as one piece
  /// at its commit. That connection and another root watcher still get every
  /// diff once, in version order, and the sender an ack for each action.
  @Test func pipelinedActionsReachEveryRootWatcherInOrder() throws {
    let daemon = try LoopDaemon()
    let other = try daemon.client("other watcher")
    try other.subscribe()
    _ = try other.nextMessage()
    let raw = try RawConnection(daemon)
    try raw.hello()
    try raw.send(#"{"type":"subscribe","id":1,"path":""}"#)
    guard case .snapshot(0, _, _, _) = try raw.read() else {
      Issue.record("expected a snapshot at version 0")
      return
    }
    let count = 60
    var frames: [UInt8] = []
    for id in 2..<(2 + count) {
      frames += try FrameEncoder.frame(
        Array(#"{"type":"send","id":\#(id),"path":"counter.incrementButtonTapped"}"#.utf8))
    }
    try raw.write(frames)
    var acks: [Int] = []
    var diffs: [UInt64] = []
    while acks.count < count || diffs.count < count {
      switch try raw.read() {
      case .ack(let id, let version)?:
        acks.append(id)
        #expect(version == UInt64(id - 1))
        // The diff of a version reaches its sender before the ack.
        #expect(diffs.count >= Int(version))
      case .diff(let version, _, _, _)?:
        diffs.append(version)
      case .heartbeat?:
        continue
      case let message:
        Issue.record("unexpected \(String(describing: message))")
        return
      }
    }
    #expect(acks == Array(2..<(2 + count)))
    #expect(diffs == Array(1...UInt64(count)))
    var seen: [UInt64] = []
    while seen.count < count {
      if case .diff(let version, _, _, _) = try other.nextMessage() { seen.append(version) }
    }
    #expect(seen == Array(1...UInt64(count)))
    #expect(try other.get(path: "/counter/count").value == .int(count))
  }

  @Test func sigtermStopsCleanlyAndRemovesTheSocket() throws {
    let daemon = try DaemonProcess()
    let watcher = try daemon.client()
    try watcher.subscribe()
    _ = try watcher.nextMessage()
    #expect(daemon.stop() == 0)
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    let last = try nextMessage(from: watcher) { if case .goodbye = $0 { true } else { false } }
    #expect(last == .goodbye(reason: "storedaemon is shutting down"))
  }
}

/// Two runs of a store are two harnesses, each with its own state
/// directory and so its own epoch.
@Suite(.timeLimit(.minutes(1)))
struct EpochTests {
  @Test func aVersionFromAnotherRunIsNotResumed() throws {
    let first = try TurnHarness<HarnessedSeedApps>()
    let oldEpoch = first.epoch
    let sender = try first.connect()
    for id in 1...3 { _ = try first.sendAlone("counter.incrementButtonTapped", id: id, from: sender) }
    let second = try TurnHarness<HarnessedSeedApps>()
    let newSender = try second.connect()
    #expect(second.epoch != oldEpoch)
    for id in 1...5 { _ = try second.sendAlone("dice.view.undoLastRoll", id: id, from: newSender) }
    let watcher = try second.connect("watcher")
    second.request(.subscribe(id: 1, path: "", since: 3, epoch: oldEpoch), from: watcher)
    guard case .snapshot(5, "", _, .compacted)? = try watcher.messages().first else {
      Issue.record("a version of another epoch must give a compacted snapshot")
      return
    }
    let resumer = try second.connect("resumer")
    second.request(.subscribe(id: 1, path: "", since: 3, epoch: second.epoch), from: resumer)
    #expect(try resumer.messages().first == .ack(id: 1, version: 3))
  }
}

@Suite(.serialized, .timeLimit(.minutes(1)))
struct HeartbeatTests {
  @Test func anIdleSubscriberHearsHeartbeats() throws {
    let daemon = try LoopDaemon(arguments: ["--heartbeat", "0.2"])
    let watcher = try daemon.client()
    try watcher.subscribe(path: "/counter")
    guard case .snapshot = try watcher.nextMessage() else {
      Issue.record("expected the snapshot first")
      return
    }
    #expect(try watcher.nextMessage() == .heartbeat(version: 0))
    #expect(try watcher.nextMessage() == .heartbeat(version: 0))
  }
}
