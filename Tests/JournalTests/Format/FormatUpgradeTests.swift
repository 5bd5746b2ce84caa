import Foundation
import JSON
import TestSupport
import Testing

@testable import Journal

/// A journal of format 1 (enums in Foundation's shape) is read, never
/// appended to in place, and shown in the current format through a
/// `JournalUpgrade` (docs/DURABILITY.md, "Format versions").
@Suite(.ownThreads) struct FormatUpgradeTests {
  enum Status: Codable, Equatable, Sendable {
    case idle
    case failed(String)
  }

  struct State: Codable, Equatable, Sendable {
    var status: Status
  }

  enum Action: Codable, Equatable, Sendable {
    case fail(String)
  }

  /// Snapshot 0 and one record, version 1, both of format 1.
  func makeFormat1Journal(_ directory: TemporaryDirectory) throws -> String {
    let journal = directory.journal
    try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
    let snapshot = SnapshotFile.encode(
      version: 0, epoch: "e", time: 1_700_000_000_000, state: try json(#"{"status":{"idle":{}}}"#))
    let text = String(decoding: snapshot, as: UTF8.self).replacing("\"format\":2", with: "\"format\":1")
    try Files.write(Array(text.utf8), to: journal + "/" + JournalFileName.snapshot(0))
    let record = JournalRecord(
      version: 1, time: 1_700_000_000_001, origin: .object(["client": .string("test")]),
      action: try json(#"{"fail":{"_0":"x"}}"#),
      patch: try json(#"[{"op":"replace","path":"/status","value":{"failed":{"_0":"x"}}}]"#))
    let segment = journal + "/00000000000000000001.journal"
    try Files.write(
      SegmentHeader(firstVersion: 1, epoch: "e", format: JournalFormat.foundationEnums).encoded()
        + RecordFormat.encode(record), to: segment)
    return segment
  }

  func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  @Test func aFormat1JournalIsReadAndContinuedInANewSegment() throws {
    let directory = try TemporaryDirectory()
    let oldSegment = try makeFormat1Journal(directory)
    let before = try Files.read(oldSegment)
    let journal = try JournalDirectory(path: directory.journal)
    let recovered = try journal.recover()
    #expect(recovered.snapshot?.format == JournalFormat.foundationEnums)
    #expect(recovered.records.map(\.format) == [JournalFormat.foundationEnums])
    let replayed = try recovered.replay(initialState: .null)
    #expect(try JSONValueDecoder.decode(State.self, from: replayed) == State(status: .failed("x")))

    let writer = try journal.openWriter(after: recovered, epoch: "e")
    try writer.append([
      JournalRecord(
        version: 2, time: 1_700_000_000_002, origin: .object(["client": .string("test")]),
        action: try json(#"{"fail":"y"}"#),
        patch: try json(#"[{"op":"replace","path":"/status","value":{"failed":"y"}}]"#))
    ])
    try writer.close()
    #expect(try Files.read(oldSegment) == before, "a format 1 segment is never appended to")
    let newSegment = directory.journal + "/00000000000000000002.journal"
    let header = try Files.read(newSegment)
    #expect(header[11] == UInt8(JournalFormat.current))

    // Read as recorded without an upgrade; in today's format with one.
    #expect(try journal.reader.state(at: 1, initialState: .null) == json(#"{"status":{"failed":{"_0":"x"}}}"#))
    let reader = journal.reader.upgrading(.reencoding(state: State.self, action: Action.self))
    #expect(try reader.state(at: 0, initialState: .null) == json(#"{"status":"idle"}"#))
    #expect(try reader.state(at: 1, initialState: .null) == json(#"{"status":{"failed":"x"}}"#))
    let records = try reader.records(from: 1, through: 2)
    #expect(records.map(\.action) == [try json(#"{"fail":"x"}"#), try json(#"{"fail":"y"}"#)])
    #expect(records[0].patch == (try json(#"[{"op":"replace","path":"/status","value":{"failed":{"_0":"x"}}}]"#)))
  }
}
