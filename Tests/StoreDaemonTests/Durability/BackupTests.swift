import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing
import Wire

/// `storedaemon backup` while the daemon serves and compacts, and
/// `storedaemon restore` to a version of the backup (docs/CLI.md, "backup
/// and restore"; docs/OPERATIONS.md, "Backup" and "Restore"). The journal's
/// own cases (a copy racing compaction record by record, the record being
/// appended, damage) are in `Tests/JournalTests/Backup`.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(10)))
struct BackupTests {
  /// A snapshot, and so a compaction, every 40 records.
  static let snapshots = ["STOREDAEMON_DEBUG_SNAPSHOT_RECORDS": "40"]

  /// Sends increments from a thread of its own until stopped.
  private final class Load: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    let failure = Mutex<String?>(nil)

    init(_ daemon: DaemonProcess) throws {
      let socketPath = daemon.socketPath
      Thread.detachNewThread { [self] in
        defer { done.signal() }
        let client: WireClient
        do {
          client = try WireClient(path: socketPath, clientName: "load", handshakeTimeout: eventTimeout)
        } catch {
          failure.withLock { $0 = "\(error)" }
          return
        }
        defer { client.close() }
        while !stopped.load(ordering: .relaxed) {
          do {
            _ = try client.send(path: "counter.incrementButtonTapped")
          } catch {
            failure.withLock { $0 = "\(error)" }
            return
          }
        }
      }
    }

    func stop() {
      stopped.store(true, ordering: .relaxed)
      done.wait()
    }
  }

  private static func manifest(_ directory: String) throws -> (from: UInt64, through: UInt64) {
    let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/backup.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let from = try #require(object["from"] as? Int)
    let through = try #require(object["through"] as? Int)
    return (UInt64(from), UInt64(through))
  }

  @Test func backupsTakenUnderLoadVerifyAndRestoreToAnyVersionTheyHold() throws {
    let daemon = try DaemonProcess(environment: Self.snapshots)
    let scratch = try TemporaryDirectory(prefix: "backups")
    let load = try Load(daemon)
    let observer = try daemon.client("observer")
    defer { observer.close() }
    var backups: [String] = []
    for index in 0..<3 {
      try waitUntil("the load goes on") {
        try observer.status()[path: "version"].map { if case .int(let v) = $0 { v > 150 * (index + 1) } else { false } }
          ?? false
      }
      let backup = scratch.appending("b\(index)")
      let taken = try runProduct("storedaemon", ["backup", backup, "--state-dir", daemon.stateDirectory])
      #expect(taken.status == 0, "\(taken)")
      #expect(taken.output.contains("backed up versions"), "\(taken.output)")
      backups.append(backup)
    }
    load.stop()
    #expect(load.failure.withLock { $0 } == nil)

    var last: UInt64 = 0
    for backup in backups {
      let (from, through) = try Self.manifest(backup)
      #expect(through > last && from <= through, "each later backup holds more: \(from)…\(through)")
      last = through
      let verified = try runProduct("storedaemon", ["verify", "--state-dir", backup])
      #expect(verified.status == 0, "\(verified)")
      #expect(verified.output.contains("every version reproduced") || verified.output.contains("nothing to replay"))
    }

    // Back to a version in the middle of the last backup, and to its last.
    let (from, through) = try Self.manifest(backups[2])
    let epochBefore = try observer.status()[path: "epoch"]
    for version in [from + (through - from) / 2, through] {
      let target = scratch.appending("restored-\(version)")
      let restored = try runProduct(
        "storedaemon", ["restore", backups[2], "--version", "\(version)", "--state-dir", target])
      #expect(restored.status == 0, "\(restored)")
      let verified = try runProduct("storedaemon", ["verify", "--state-dir", target])
      #expect(verified.status == 0, "\(verified)")
      let expected = try observer.get(path: "/counter", at: version).value
      let again = try DaemonProcess(copyingState: target)
      let client = try again.client("after-restore")
      defer { client.close() }
      let state = try client.get(path: "/counter")
      #expect(state.version == version)
      #expect(state.value == expected, "the restored state is the one the daemon had at \(version)")
      #expect(try client.status()[path: "epoch"] != epochBefore, "the versions after the restore begin a new epoch")
      #expect(try client.send(path: "counter.incrementButtonTapped") == version + 1)
    }
  }

  @Test(arguments: ["after-journal", "before-rename"])
  func aBackupKilledMidwayLeavesNoBackupAndTheNextIsWhole(point: String) throws {
    let daemon = try DaemonProcess(environment: Self.snapshots)
    let client = try daemon.client()
    defer { client.close() }
    for _ in 0..<100 { _ = try client.send(path: "counter.incrementButtonTapped") }
    let scratch = try TemporaryDirectory(prefix: "backups")
    let backup = scratch.appending("b")
    let killed = try runProduct(
      "storedaemon", ["backup", backup, "--state-dir", daemon.stateDirectory],
      environment: ["STOREDAEMON_DEBUG_KILL_DURING_BACKUP": point])
    #expect(killed.status == SIGKILL, "\(killed)")
    #expect(!FileManager.default.fileExists(atPath: backup), "a backup cut short is never at DIR")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(leftovers.count == 1 && leftovers[0].hasPrefix("b.partial-"), "\(leftovers)")
    #expect(try client.send(path: "counter.incrementButtonTapped") == 101, "the daemon serves on")

    let taken = try runProduct("storedaemon", ["backup", backup, "--state-dir", daemon.stateDirectory])
    #expect(taken.status == 0, "\(taken)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["b"], "the leftover is removed")
    #expect(try Self.manifest(backup).through == 101)
    #expect(try runProduct("storedaemon", ["verify", "--state-dir", backup]).status == 0)
  }

  @Test func whatARestoreRefusesItSaysAndChangesNothing() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    defer { client.close() }
    for _ in 0..<10 { _ = try client.send(path: "counter.incrementButtonTapped") }
    let scratch = try TemporaryDirectory(prefix: "backups")
    let backup = scratch.appending("b")
    #expect(try runProduct("storedaemon", ["backup", backup, "--state-dir", daemon.stateDirectory]).status == 0)

    let exists = try runProduct("storedaemon", ["backup", backup, "--state-dir", daemon.stateDirectory])
    #expect(exists.status == 73 && exists.error.contains("\(backup) exists"), "\(exists)")

    let inUse = try runProduct("storedaemon", ["restore", backup, "--state-dir", daemon.stateDirectory])
    #expect(inUse.status == 73 && inUse.error.contains("stop the daemon"), "\(inUse)")
    #expect(try client.send(path: "counter.incrementButtonTapped") == 11)

    let missing = try runProduct(
      "storedaemon", ["restore", backup, "--version", "12", "--state-dir", scratch.appending("r")])
    #expect(missing.status == 65 && missing.error.contains("not version 12"), "\(missing)")

    // A file the backup did not write, in its journal: refused, named.
    let planted = backup + "/journal/00000000000000000099.journal"
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: planted))
    let foreign = try runProduct("storedaemon", ["restore", backup, "--state-dir", scratch.appending("r")])
    #expect(foreign.status == 65 && foreign.error.contains("is not one of the files backup.json lists"), "\(foreign)")
    try FileManager.default.removeItem(atPath: planted)

    // A byte of the backup flipped: the restore names the file.
    let segment = try #require(
      try FileManager.default.contentsOfDirectory(atPath: backup + "/journal").first { $0.hasSuffix(".journal") })
    let path = backup + "/journal/" + segment
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    bytes[bytes.count - 3] ^= 0x01
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let damaged = try runProduct("storedaemon", ["restore", backup, "--state-dir", scratch.appending("r")])
    #expect(damaged.status == 65 && damaged.error.contains(segment), "\(damaged)")
    #expect(!FileManager.default.fileExists(atPath: scratch.appending("r/journal")), "nothing restored")

    let usage = try runProduct("storedaemon", ["restore", "--version", "x"])
    #expect(usage.status == 64 && usage.error.contains("--version needs"), "\(usage)")
  }
}
