import Foundation
import Glibc
import JSON
import TestSupport
import Testing
import Wire

/// State directories written by `shelfd` 1.0.0 (schema 1) start under
/// `shelfd` 2.0.0 (schema 2: `title` renamed `name`, `shelfColor` removed,
/// `visits` and `lastVisit` added, `lending` given a loan period, `closed`
/// added), which migrates them once: a migration record, then a snapshot,
/// versions and epoch carried on (docs/DURABILITY.md, "Schema versions and migrations").
/// The fixtures and the script that made them: Tests/Fixtures/README.md.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(5))) struct SchemaUpgradeTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")
  /// The snapshot at 0 and versions 1…7 after it.
  static let tail = fixtures.appendingPathComponent("shelf-1.0.0-tail").path
  /// A snapshot at version 6, nothing after it.
  static let snapshotOnly = fixtures.appendingPathComponent("shelf-1.0.0-snapshot").path

  /// The tail fixture's state, migrated.
  static let migratedTail: JSONValue = .object([
    "name": .string("Reading room"),
    "books": .array([
      .object(["id": .int(2), "title": .string("Emma")]), .object(["id": .int(3), "title": .string("Persuasion")]),
    ]),
    "nextID": .int(4),
    "mode": .object(["lending": .object(["to": .string("ann"), "days": .int(14)])]),
    "visits": .int(0),
    "lastVisit": .null,
  ])

  /// The migration record's origin.
  static let migrationOrigin: JSONValue = .object([
    "build": .string("shelfd 2.0.0"), "migration": .object(["from": .int(1), "to": .int(2)]),
  ])

  /// The epoch a fixture's journal was written in, from its newest snapshot's header.
  static func epoch(of fixture: String) throws -> String {
    let journal = fixture + "/journal"
    let snapshot = try #require(
      try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".snapshot") }.max())
    let bytes = try Data(contentsOf: URL(fileURLWithPath: journal + "/" + snapshot))
    let header = try JSONParser.parse(Array(bytes.prefix { $0 != UInt8(ascii: "\n") }))
    guard case .object(let fields) = header, case .string(let epoch)? = fields["epoch"] else {
      throw DaemonTestError("\(snapshot) has no epoch in its header")
    }
    return epoch
  }

  /// The journal's snapshots, by name, with their header's schema.
  static func snapshotSchemas(_ daemon: DaemonProcess) throws -> [String: Int] {
    let journal = daemon.stateDirectory + "/journal"
    var schemas: [String: Int] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: journal) where name.hasSuffix(".snapshot") {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: journal + "/" + name))
      guard case .object(let header) = try JSONParser.parse(Array(bytes.prefix { $0 != UInt8(ascii: "\n") })) else {
        continue
      }
      if case .int(let schema)? = header["schema"] { schemas[name] = schema } else { schemas[name] = 1 }
    }
    return schemas
  }

  @Test func aJournalTailIsMigratedOnceAndVersionsCarryOn() throws {
    let daemon = try DaemonProcess(copyingState: Self.tail, executable: "shelf-v2")
    let client = try daemon.client()
    #expect(client.versionAtConnect == 8, "versions 1…7, then the migration")
    #expect(client.epoch == (try Self.epoch(of: Self.tail)))
    #expect(try client.get().value == Self.migratedTail)

    let log = try client.log(since: nil, last: nil)
    #expect(log.records.map(\.version) == Array(1...8))
    let migration = try #require(log.records.last)
    #expect(migration.origin == Self.migrationOrigin)
    #expect(migration.summary == "schema 1 → 2")
    #expect(
      log.records[3].action == .object(["paint": .string("walnut")]),
      "the records before it stay as schema 1 wrote them")
    // The state before the migration, as recorded, and after it.
    #expect(try client.get(path: "/title", at: 7).value == .string("Reading room"))
    #expect(try client.get(path: "/name", at: 8).value == .string("Reading room"))
    #expect(try Self.snapshotSchemas(daemon)["snapshot-00000000000000000008.snapshot"] == 2)

    let text = try tcactl(["--app", "shelfd", "log", "-n", "1"], socket: daemon.socketPath)
    #expect(text.status == 0)
    #expect(text.output.contains("shelfd 2.0.0 (migration)  schema 1 → 2"), "\(text.output)")
    #expect(text.output.contains(#"- /shelfColor: "walnut""#) && text.output.contains("+ /visits: 0"))

    // Schema 2 goes on, and a restart does not migrate again.
    #expect(try client.send(path: "visit") == 9)
    #expect(try client.send(path: "lend", arguments: ["bo"]) == 10)
    #expect(daemon.stop() == 0)
    let restarted = try DaemonProcess(reusing: daemon, executable: "shelf-v2")
    let again = try restarted.client()
    #expect(again.versionAtConnect == 10)
    #expect(try again.log(since: nil, last: nil).records.filter { $0.origin == Self.migrationOrigin }.count == 1)
    #expect(
      try again.get(path: "/mode").value == .object(["lending": .object(["to": .string("bo"), "days": .int(14)])]))
    #expect(!restarted.standardError.contains("migrated the state"), "\(restarted.standardError)")
  }

  @Test func aSnapshotWithNothingAfterItIsMigrated() throws {
    let daemon = try DaemonProcess(copyingState: Self.snapshotOnly, executable: "shelf-v2")
    let client = try daemon.client()
    #expect(client.versionAtConnect == 7)
    #expect(client.epoch == (try Self.epoch(of: Self.snapshotOnly)))
    #expect(
      try client.get().value
        == .object([
          "name": .string("Attic"), "books": .array([.object(["id": .int(1), "title": .string("Middlemarch")])]),
          "nextID": .int(3), "mode": .object(["lending": .object(["to": .string("bob"), "days": .int(14)])]),
          "visits": .int(0), "lastVisit": .null,
        ]))
    let log = try client.log(since: 6, last: nil)
    #expect(log.records.map(\.version) == [7])
    #expect(log.records.first?.origin == Self.migrationOrigin)
    #expect(
      try Self.snapshotSchemas(daemon) == [
        "snapshot-00000000000000000006.snapshot": 1, "snapshot-00000000000000000007.snapshot": 2,
      ])
  }

  /// SIGKILL before the migration's record is written, and after it is
  /// durable but before the snapshot: the next start migrates exactly once.
  @Test(arguments: ["before-record", "after-record"])
  func aKillDuringTheMigrationLosesNothing(point: String) throws {
    let directory = try TemporaryState(copying: Self.tail)
    let killed = try RefusedStart(
      ["--state-dir", directory.state, "--socket", directory.socket], socket: directory.socket,
      executable: "shelf-v2", environment: ["STOREDAEMON_DEBUG_KILL_DURING_MIGRATION": point])
    #expect(killed.status == 128 + SIGKILL, "\(killed.standardError)")
    let journal = try FileManager.default.contentsOfDirectory(atPath: directory.state + "/journal")
    #expect(!journal.contains("snapshot-00000000000000000008.snapshot"), "killed before the snapshot")

    let daemon = try DaemonProcess(copyingState: directory.state, executable: "shelf-v2")
    let client = try daemon.client()
    #expect(client.versionAtConnect == 8)
    #expect(try client.get().value == Self.migratedTail)
    let log = try client.log(since: nil, last: nil)
    #expect(log.records.map(\.version) == Array(1...8))
    #expect(log.records.filter { $0.origin == Self.migrationOrigin }.count == 1)
    // After the record, the next start replays it instead of migrating again.
    #expect(
      daemon.standardError.contains("migrated the state") == (point == "before-record"), "\(daemon.standardError)")
    // Either way the snapshot of the new schema is written, once.
    let after = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory + "/journal")
    #expect(after.contains("snapshot-00000000000000000008.snapshot"), "\(after)")
  }

  /// A build of schema 2 on a new state directory starts in its own schema:
  /// there is nothing to migrate, then or at the next start.
  @Test func aNewStateDirectoryIsInTheBuildsSchema() throws {
    let empty = NSTemporaryDirectory() + "empty-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: empty) }
    let first = try DaemonProcess(copyingState: empty, executable: "shelf-v2")
    #expect(try first.client().send(path: "visit") == 1)
    #expect(first.stop() == 0)
    let second = try DaemonProcess(reusing: first, executable: "shelf-v2")
    #expect(try second.client().versionAtConnect == 1)
    #expect(!second.standardError.contains("migrat"), "\(second.standardError)")
    #expect(!first.standardError.contains("migrat"), "\(first.standardError)")
  }

  /// A subscriber of shelfd 1.0.0 resumes on 2.0.0 with no gap: the
  /// migration comes as a diff like any other version's.
  @Test func aSubscriberResumesAcrossTheUpgrade() throws {
    let old = try DaemonProcess(copyingState: Self.tail, executable: "shelf-v1")
    let watcher = try old.client("watcher")
    try watcher.subscribe()
    guard case .snapshot(7, _, let oldState, nil) = try watcher.nextMessage() else {
      Issue.record("the first message of a subscription is its snapshot at version 7")
      return
    }
    let epoch = watcher.epoch
    // A second subscriber fell behind earlier, at version 5.
    let earlier = try old.client().get(at: 5).value
    #expect(old.stop() == 0)

    let new = try DaemonProcess(reusing: old, executable: "shelf-v2")
    let current = try new.client().get().value
    for (since, base) in [(UInt64(7), oldState), (5, earlier)] {
      let resumed = try new.client("resumed")
      try resumed.subscribe(since: since, epoch: epoch)
      guard case .ack(_, since) = try resumed.nextMessage() else {
        Issue.record("resuming after \(since) is acknowledged, not answered with a snapshot")
        continue
      }
      var state = base
      for expected in (since + 1)...8 {
        guard case .diff(let version, _, let summary, let patch) = try resumed.nextMessage() else {
          Issue.record("version \(expected) comes as a diff")
          break
        }
        #expect(version == expected)
        if version == 8 { #expect(summary == "schema 1 → 2") }
        state = try JSONPatch.apply(try JSONPatch.operations(from: patch), to: state)
      }
      #expect(state == current, "the diffs from version \(since) give the migrated state")
    }
  }

  /// The first build refuses what the second wrote, leaving the files as
  /// they were.
  @Test func dataOfANewerSchemaIsRefusedUntouched() throws {
    let upgraded = try DaemonProcess(copyingState: Self.tail, executable: "shelf-v2")
    #expect(upgraded.stop() == 0)
    let journal = upgraded.stateDirectory + "/journal"
    let before = try JournalFiles.contents(of: journal)
    let refused = try RefusedStart(
      ["--state-dir", upgraded.stateDirectory, "--socket", upgraded.directory + "/run/again.sock"],
      socket: upgraded.directory + "/run/again.sock", executable: "shelf-v1")
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("(schema 2)"), "\(refused.standardError)")
    #expect(
      refused.standardError.contains("newer than this build's schema 1: run a build of schema 2 or newer"),
      "\(refused.standardError)")
    #expect(try JournalFiles.contents(of: journal) == before)
  }
}

/// A copy of a fixture's state directory, with room for a socket.
struct TemporaryState {
  let directory: TemporaryDirectory
  var state: String { directory.path + "/state" }
  var socket: String { directory.path + "/shelfd.sock" }

  init(copying fixture: String) throws {
    directory = try TemporaryDirectory()
    try FileManager.default.copyItem(atPath: fixture, toPath: directory.path + "/state")
  }
}
