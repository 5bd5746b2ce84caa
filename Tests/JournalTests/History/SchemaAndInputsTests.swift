import Foundation
import JSON
import JournalTestChild
import TestSupport
import Testing

@testable import Journal

/// What the journal keeps for replays and upgrades: each record's inputs,
/// each snapshot's schema, migration records, and the whole retained journal
/// read without the lock (docs/DURABILITY.md, "Schema versions and migrations").
@Suite(.ownThreads) struct SchemaAndInputsTests {
  @Test func aRecordKeepsItsInputsAndOnlyWhenItHasSome() throws {
    let directory = try TemporaryDirectory()
    var drew = SampleJournal.record(1)
    drew.inputs = .object([
      "random": .array([.int(4)]), "uuid": .array([.string("00000000-0000-0000-0000-000000000001")]),
    ])
    do {
      let journal = try JournalDirectory(path: directory.journal)
      let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
      try writer.append([drew, SampleJournal.record(2)])
      try writer.close()
    }

    let bytes = try Files.read(try Journals.segments(in: directory.journal)[0])
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains(#"{"action":"#))
    #expect(text.contains(#","inputs":{"random":[4],"uuid":["00000000-0000-0000-0000-000000000001"]},"origin":"#))
    #expect(text.components(separatedBy: #""inputs""#).count == 2, "the record that drew nothing has no inputs member")

    let (_, records) = try Journals.recover(directory.journal)
    #expect(records == [drew, SampleJournal.record(2)])
    #expect(records[1].inputs == nil)
  }

  @Test func aSnapshotRecordsItsSchema() throws {
    let bytes = SnapshotFile.encode(version: 3, epoch: "e", time: 1, state: .object([:]), schema: 4)
    #expect(try SnapshotFile.decode(bytes, path: "p", expectedVersion: 3).schema == 4)
    // Written before schemas were recorded: schema 1.
    let crc = CRC32C.checksum(Array("{}".utf8))
    let old = Array(
      (#"{"crc32c":"# + "\(crc)"
        + #","epoch":"e","format":2,"length":2,"magic":"storedaemon-snapshot","time":1,"version":3}"# + "\n{}\n").utf8)
    #expect(try SnapshotFile.decode(old, path: "p", expectedVersion: 3).schema == 1)
    let zero = String(
      decoding: SnapshotFile.encode(version: 3, epoch: "e", time: 1, state: .object([:])), as: UTF8.self
    )
    .replacingOccurrences(of: #""schema":1"#, with: #""schema":0"#)
    #expect(throws: SnapshotFile.Problem.unreadable(#"its header's "schema" is not a positive integer"#)) {
      try SnapshotFile.decode(Array(zero.utf8), path: "p", expectedVersion: 3)
    }
  }

  /// The schema after recovery: the snapshot's, then the last migration's.
  @Test func recoveryKnowsTheSchemaFromTheSnapshotAndTheMigrations() throws {
    let directory = try TemporaryDirectory()
    do {
      let journal = try JournalDirectory(path: directory.journal)
      let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
      try writer.append(SampleJournal.records(1...3))
      try journal.writeSnapshot(version: 3, state: SampleJournal.state(at: 3), epoch: "e", schema: 2)
      try writer.append([SampleJournal.record(4)])
      try writer.close()
    }
    let recovered = try JournalDirectory(path: directory.journal).recover()
    #expect(recovered.snapshot?.schema == 2)
    #expect(recovered.schema == 2)
  }

  @Test func aMigrationRecordIsFoundByItsFirstBytes() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "e")
    let change = SchemaChange(from: 2, to: 3)
    let migration = change.record(
      version: 2, time: 5, patch: .array([.object(["op": .string("add"), "path": .string("/new"), "value": .int(0)])]),
      build: "app 3.0")
    try writer.append([SampleJournal.record(1), migration, SampleJournal.record(3)])
    try writer.close()

    #expect(migration.action == .object(["$migration": .object(["from": .int(2), "to": .int(3)])]))
    #expect(
      migration.origin
        == .object(["build": .string("app 3.0"), "migration": .object(["from": .int(2), "to": .int(3)])]))
    let recovered = try journal.recover()
    #expect(recovered.records.map(\.schemaChange) == [nil, change, nil])
    #expect(recovered.schema == 3)
    #expect(change.summary == "schema 2 → 3")
    #expect(SchemaChange(action: .object(["$migration": .string("x")])) == nil)
  }

  /// The retained journal from the oldest snapshot its records continue,
  /// through the last record written whole: a record being appended (here,
  /// cut short) ends it, as it would beside the daemon. Without a snapshot
  /// the records start at version 1.
  @Test func theRetainedJournalIsReadWholeWithoutTheLock() throws {
    let directory = try TemporaryDirectory()
    let journal = try JournalDirectory(path: directory.journal)
    let writer = try journal.openWriter(
      after: try journal.recover(), epoch: "e", configuration: JournalWriter.Configuration(segmentSizeLimit: 2048))
    try writer.append(SampleJournal.records(1...100))
    // This process holds the lock: the reader does not need it.
    let unsnapshotted = try JournalReader(directory: directory.journal).retained()
    #expect(unsnapshotted.snapshot == nil && unsnapshotted.baseVersion == 0)
    #expect(unsnapshotted.records.map(\.version) == Array(1...100))

    try journal.writeSnapshot(version: 60, state: SampleJournal.state(at: 60), epoch: "e", compacting: false)
    try journal.writeSnapshot(version: 90, state: SampleJournal.state(at: 90), epoch: "e", compacting: false)
    let kept = try JournalReader(directory: directory.journal).retained()
    #expect(kept.snapshot?.version == 60, "the oldest snapshot: the state it holds is the one recorded")
    #expect(kept.records.map(\.version) == Array(61...100))

    // Compacted by a snapshot at 95, and a record being appended at the end.
    try journal.writeSnapshot(version: 95, state: SampleJournal.state(at: 95), epoch: "e")
    try writer.close()
    let last = try #require(try Journals.segments(in: directory.journal).last)
    let bytes = try Files.read(last)
    try Files.write(bytes + Array(bytes[bytes.count - 40..<bytes.count - 10]), to: last)
    let compacted = try JournalReader(directory: directory.journal).retained()
    #expect(compacted.snapshot?.version == 95)
    #expect(compacted.records.map(\.version) == Array(96...100), "the record being appended is not read")
    #expect(compacted.baseVersion == 95 && compacted.lastVersion == 100)
  }
}
