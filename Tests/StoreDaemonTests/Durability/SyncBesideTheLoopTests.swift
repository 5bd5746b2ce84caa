import Foundation
import Glibc
import Platform
import Testing
import Wire

/// Under `--fsync always` the journal is synced beside the store loop: the
/// next batch is reduced while the last one is being synced, and nothing of
/// either is answered or published before it is durable
/// (docs/DURABILITY.md, "Group commit").
///
/// The sync waits at a gate (a fault only debug builds inject) while a
/// second batch is reduced on top of it; the test then lets it succeed or
/// fail.
@Suite(.enabled(if: isDebugBuild, "the gated sync is a fault only debug builds of storedaemon can inject"))
struct SyncBesideTheLoopTests {
  /// A daemon whose first sync waits at the gate, with a watcher of the
  /// whole state and two senders connected before anything is sent.
  private struct TwoBatches {
    let gate: String
    let daemon: DaemonProcess
    let watcher: RawConnection
    let first: RawConnection
    let second: RawConnection

    /// `watching` is the watcher's request: a subscription, or following
    /// the log.
    init(watching request: String = #"{"type":"subscribe","id":1,"path":""}"#) throws {
      gate = FileManager.default.temporaryDirectory.appendingPathComponent("sync-gate-\(UUID())").path
      daemon = try DaemonProcess(environment: ["STOREDAEMON_DEBUG_SYNC_GATE": gate])
      // Connected first: a new connection waits until everything reduced is
      // durable, which would wait for the gate.
      watcher = try RawConnection(daemon)
      try watcher.hello()
      try watcher.send(request)
      switch try watcher.read() {
      case .snapshot(0, _, _, _)?, .log(1, _, 0, false)?: break
      case let other:
        throw DaemonTestError("expected a snapshot or an empty log page, got \(String(describing: other))")
      }
      first = try RawConnection(daemon)
      try first.hello()
      second = try RawConnection(daemon)
      try second.hello()

      try first.send(#"{"type":"send","id":1,"path":"counter.incrementButtonTapped"}"#)
      try waitUntil("the first batch's sync waits at the gate") { access(gate + ".waiting", F_OK) == 0 }
      try second.send(#"{"type":"send","id":1,"path":"counter.incrementButtonTapped"}"#)
      try waitUntil("a second batch is reduced while the first is synced") { access(gate + ".second", F_OK) == 0 }
    }

    /// Whether any of the three connections has anything to read.
    var anythingSaid: Bool {
      !Readiness.readable(
        [watcher.socket.descriptor, first.socket.descriptor, second.socket.descriptor], milliseconds: 100
      ).isEmpty
    }

    func open(saying text: String) {
      _ = FileManager.default.createFile(atPath: gate, contents: Data(text.utf8))
    }

    func removeGate() {
      for suffix in ["", ".waiting", ".second"] { unlink(gate + suffix) }
    }
  }

  @Test func theNextBatchIsReducedDuringTheSyncAndAnsweredOnceDurable() throws {
    let batches = try TwoBatches()
    defer { batches.removeGate() }
    #expect(!batches.anythingSaid, "nothing is said of a batch before it is durable")
    batches.open(saying: "")
    guard case .ack(1, let firstVersion)? = try batches.first.read(),
      case .ack(1, let secondVersion)? = try batches.second.read()
    else {
      Issue.record("expected both sends acknowledged")
      return
    }
    #expect((firstVersion, secondVersion) == (1, 2))
    var diffs: [UInt64] = []
    while diffs.count < 2, let message = try batches.watcher.read() {
      if case .diff(let version, _, _, _) = message { diffs.append(version) }
    }
    #expect(diffs == [1, 2])
    let state = try batches.daemon.client().get(path: "/counter/count")
    #expect(state.value == .int(2) && state.version == 2)
  }

  /// A batch refused after the one before it became durable (its write
  /// failed, as on a full disk) takes nothing of that one along: a client
  /// following the log gets the durable batch's record, and then the next
  /// version, without a gap.
  @Test func aFollowerKeepsTheDurableBatchsRecordsWhenTheNextIsRefused() throws {
    let batches = try TwoBatches(watching: #"{"type":"log","id":1,"follow":true}"#)
    defer { batches.removeGate() }
    let segment = try JournalFiles.lastSegment(in: batches.daemon.stateDirectory + "/journal")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
    // The first batch is written already; the second cannot be.
    try limitFileSize(of: batches.daemon.pid, to: "\(size)")
    batches.open(saying: "")
    guard case .ack(1, 1)? = try batches.first.read() else {
      Issue.record("expected the first send acknowledged at version 1")
      return
    }
    guard case .error(1, .journal, _)? = try batches.second.read() else {
      Issue.record("expected the second send refused")
      return
    }
    try limitFileSize(of: batches.daemon.pid, to: "unlimited")
    #expect(try batches.daemon.client().send(path: "counter.incrementButtonTapped") == 2)
    var versions: [UInt64] = []
    while versions.count < 2, let message = try batches.watcher.read() {
      if case .record(let entry) = message { versions.append(entry.version) }
    }
    #expect(versions == [1, 2])
  }

  /// A refused sync undoes its batch and the one reduced on top of it:
  /// both senders hear that their action was not applied, the watcher sees
  /// no version of either, and the state is as it was.
  @Test func aRefusedSyncUndoesTheBatchReducedOnTopOfIt() throws {
    let batches = try TwoBatches()
    defer { batches.removeGate() }
    batches.open(saying: "fail")
    for sender in [batches.first, batches.second] {
      guard case .error(1, let code, let message)? = try sender.read() else {
        Issue.record("expected the send refused")
        continue
      }
      #expect(code == .journal)
      #expect(message.contains("not applied") && message.contains("version 0"))
    }
    let reader = try batches.daemon.client()
    let state = try reader.get(path: "/counter/count")
    #expect(state.value == .int(0) && state.version == 0)
    #expect(throws: ClientError.self) { try reader.send(path: "counter.incrementButtonTapped") }
    // The watcher is told nothing of the undone versions, to the end.
    #expect(batches.daemon.stop() == 0)
    let told = try batches.watcher.readUntilClosed()
    #expect(!told.contains { if case .diff = $0 { true } else { false } })
  }
}
