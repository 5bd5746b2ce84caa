import JSON
import JournalTestChild
import Testing

@testable import Journal

@Suite struct RecordFormatTests {
  /// Encoding a record and reading it back gives the same record, for plain
  /// and awkward values (escapes, non-ASCII, negative time, huge version).
  @Test(arguments: [
    SampleJournal.record(1),
    SampleJournal.record(3),
    JournalRecord(
      version: UInt64.max, time: -1, origin: .null, action: .string("line\nbreak \"quoted\" é \u{1}"),
      patch: .array([])),
    JournalRecord(
      version: 42, time: 0, origin: .object(["effect": .object(["id": .int(7), "kind": .string("timer")])]),
      action: .array([.double(0.1), .double(1e16), .bool(false), .null, .int(Int.min)]),
      patch: .array([.object(["op": .string("remove"), "path": .string("/a~1b/0")])])),
  ])
  func roundTrip(record: JournalRecord) throws {
    let bytes = RecordFormat.encode(record)
    let scanned = try bytes.withBytes { buffer throws(RecordProblem) in try RecordReader.record(in: buffer, at: 0) }
    #expect(scanned.offset == 0)
    #expect(scanned.end == bytes.count)
    #expect(scanned.version == record.version)
    #expect(scanned.layout.time == record.time)
    let entry = JournalEntry(
      version: scanned.version, time: scanned.layout.time, path: "test", offset: 0,
      payload: bytes[RecordFormat.headerLength...], format: JournalFormat.current, patchRange: scanned.layout.patch)
    #expect(try entry.decoded() == record)
    #expect(try entry.patch() == record.patch)
    #expect(try entry.action() == record.action)
  }

  /// The payload is the record's canonical JSON, members in byte order.
  @Test func payloadIsCanonicalJSON() throws {
    let record = SampleJournal.record(3)
    let bytes = RecordFormat.encode(record)
    let payload = Array(bytes[RecordFormat.headerLength...])
    let expected = CanonicalJSON.encode(
      .object([
        "version": .int(3), "time": .int(Int(record.time)), "origin": record.origin, "action": record.action,
        "patch": record.patch,
      ]))
    #expect(payload == expected)
  }

  /// A record given its action's and patch's canonical bytes is written
  /// byte for byte as one without, and equals it.
  @Test func givenCanonicalBytesAreWhatEncodingWouldWrite() {
    var record = SampleJournal.record(3)
    let plain = RecordFormat.encode(record)
    record.canonical = (CanonicalJSON.encode(record.action), CanonicalJSON.encode(record.patch))
    #expect(RecordFormat.encode(record) == plain)
    #expect(record == SampleJournal.record(3))
    #expect(record.hashValue == SampleJournal.record(3).hashValue)
  }

  /// The header: length, payload checksum, and the check of those 8 bytes.
  @Test func headerFields() {
    let bytes = RecordFormat.encode(SampleJournal.record(1))
    let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
    #expect(length == bytes.count - 12)
    let checksum = bytes[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(checksum == CRC32C.checksum(bytes[12...]))
    let check = bytes[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(check == CRC32C.checksum(bytes[0..<8]))
  }

  /// Each way a record's bytes can be wrong is named, and only the ways a
  /// crash can produce count as a possible torn write.
  @Test func problems() throws {
    let good = RecordFormat.encode(SampleJournal.record(1))
    func problem(_ bytes: [UInt8]) -> RecordProblem? {
      do {
        _ = try bytes.withBytes { buffer throws(RecordProblem) in try RecordReader.record(in: buffer, at: 0) }
        return nil
      } catch {
        return error
      }
    }
    #expect(problem(Array(good[..<11])) == .truncatedHeader(available: 11))
    #expect(problem(Array(good[..<50])) == .truncatedPayload(length: good.count - 12, available: 38))
    var flippedLength = good
    flippedLength[2] ^= 0x01
    guard case .headerCheckMismatch? = problem(flippedLength) else {
      Issue.record("a changed length must fail the header check")
      return
    }
    var flippedPayload = good
    flippedPayload[40] ^= 0x20
    guard case .payloadChecksumMismatch? = problem(flippedPayload) else {
      Issue.record("a changed payload must fail the checksum")
      return
    }
    #expect(problem([UInt8](repeating: 0, count: 64)) != nil)
    #expect(problem([UInt8](repeating: 0, count: 64))?.couldBeTornWrite == true)

    // A payload with a valid checksum that is not a record.
    var notARecord: [UInt8] = []
    let payload = Array(#"{"version":1}"#.utf8)
    notARecord.appendBigEndian(UInt32(payload.count))
    notARecord.appendBigEndian(CRC32C.checksum(payload))
    notARecord.appendBigEndian(CRC32C.checksum(notARecord))
    notARecord += payload
    guard case .notARecord(let detail)? = problem(notARecord) else {
      Issue.record("a checksum-valid non-record must be reported as such")
      return
    }
    #expect(detail.contains("\"time\""))
    #expect(problem(notARecord)?.couldBeTornWrite == false)
  }

  /// The scanner accepts what the grammar allows and finds the members'
  /// ranges; unknown members are skipped.
  @Test func scannerLayout() throws {
    let text =
      #" { "zeta" : [1, {"a":"\"}"}], "version":7,"time":-12,"patch":[],"origin":null,"action":{"x":"\u00e9"} } "#
    let bytes = Array(text.utf8)
    let layout = try bytes.withBytes { buffer throws(PayloadScanner.Problem) in try PayloadScanner.scan(buffer) }
    #expect(layout.version == 7)
    #expect(layout.time == -12)
    #expect(String(decoding: bytes[layout.patch], as: UTF8.self) == "[]")
    #expect(String(decoding: bytes[layout.origin], as: UTF8.self) == "null")
    #expect(String(decoding: bytes[layout.action], as: UTF8.self) == #"{"x":"\u00e9"}"#)
  }

  /// Malformed payloads are refused with the byte offset of the problem.
  @Test(arguments: [
    (#"{"version":1,"time":1,"origin":1,"action":1}"#, "no \"patch\""),
    (#"{"version":1,"version":2,"time":1,"origin":1,"action":1,"patch":1}"#, "a second \"version\""),
    (#"{"version":-1,"time":1,"origin":1,"action":1,"patch":1}"#, "a non-negative integer"),
    (#"{"version":1.5,"time":1,"origin":1,"action":1,"patch":1}"#, "without fraction"),
    (#"{"version":01,"time":1,"origin":1,"action":1,"patch":1}"#, "without fraction, exponent or leading zeros"),
    (#"{"version":1,"time":1,"origin":[1,],"action":1,"patch":1}"#, "a JSON value"),
    (#"{"version":1,"time":1,"origin":"a\qb","action":1,"patch":1}"#, "after '\\'"),
    (#"{"version":1,"time":1,"origin":tru,"action":1,"patch":1}"#, "'true'"),
    (#"{"version":1,"time":1,"origin":1,"action":1,"patch":1} x"#, "the end of the payload"),
    (#"{"version":18446744073709551616,"time":1,"origin":1,"action":1,"patch":1}"#, "beyond UInt64"),
    ("[1]", "'{'"),
  ])
  func scannerRefuses(text: String, expected: String) {
    let bytes = Array(text.utf8)
    do {
      _ = try bytes.withBytes { buffer throws(PayloadScanner.Problem) in try PayloadScanner.scan(buffer) }
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.description.contains(expected), "\(error) for \(text)")
      #expect(error.description.contains("at byte"))
    }
  }
}
