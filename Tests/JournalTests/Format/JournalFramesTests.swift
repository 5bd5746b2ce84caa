import JSON
import Testing

@testable import Journal

/// A batch of records framed as a segment frames them, as the replicated log
/// carries it: read back whole, and any damaged byte refused.
@Suite struct JournalFramesTests {
  static let records: [JournalRecord] = [
    JournalRecord(
      version: 7, time: 1_700_000_000_000, origin: .object(["client": .string("tcactl"), "connection": .int(3)]),
      action: .object(["counter": .string("incrementButtonTapped")]),
      patch: .array([.object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(1)])])),
    JournalRecord(
      version: 8, time: -1, origin: .null, action: .string("line\nbreak \"quoted\" é \u{1}"),
      inputs: .object(["uuid": .string("0F6E"), "now": .double(1.5)]), patch: .array([])),
    JournalRecord(
      version: 9, time: 1_700_000_000_002, origin: .object(["effect": .object(["id": .int(7)])]),
      action: .array([.double(0.1), .bool(false), .null, .int(Int.min)]),
      patch: .array([.object(["op": .string("remove"), "path": .string("/a~1b/0")])])),
  ]

  @Test func recordsRoundTrip() throws {
    let bytes = JournalFrames.encode(Self.records)
    let decoded = try JournalFrames.decode(bytes, source: "batch")
    #expect(decoded == Self.records)
    #expect(decoded.map(\.inputs) == Self.records.map(\.inputs))
    // The frames are the records' own, one after another.
    #expect(bytes == Self.records.flatMap { RecordFormat.encode($0) })
    #expect(bytes == JournalFrames.encode(Self.records[..<1]) + JournalFrames.encode(Self.records[1...]))
    #expect(try JournalFrames.decode(JournalFrames.encode(Self.records[1...1]), source: "one") == [Self.records[1]])
    #expect(JournalFrames.encode([JournalRecord]()).isEmpty)
    #expect(try JournalFrames.decode([], source: "none").isEmpty)
  }

  /// A record given its canonical bytes frames as one without.
  @Test func canonicalBytesFrameTheSame() throws {
    var record = Self.records[0]
    let plain = JournalFrames.encode([record])
    record.canonical = (CanonicalJSON.encode(record.action), CanonicalJSON.encode(record.patch))
    #expect(JournalFrames.encode([record]) == plain)
    #expect(try JournalFrames.decode(plain, source: "x") == [Self.records[0]])
  }

  /// Every flipped byte, in a header or a payload, of any record, makes
  /// decoding throw, naming the source and the offset of the damaged record.
  @Test func aFlippedByteAnywhereIsRefused() {
    let bytes = JournalFrames.encode(Self.records)
    let starts = Self.records.reduce(into: [0]) { $0.append($0.last! + RecordFormat.encode($1).count) }
    for index in bytes.indices {
      for flip: UInt8 in [0x01, 0x80] {
        var damaged = bytes
        damaged[index] ^= flip
        do {
          let decoded = try JournalFrames.decode(damaged, source: "etcd key log/9")
          Issue.record("byte \(index) flipped with \(flip) decoded as \(decoded.map(\.version))")
        } catch {
          guard case .undecodableRecord(let path, let offset, let reason) = error else {
            Issue.record("byte \(index): \(error)")
            continue
          }
          #expect(path == "etcd key log/9")
          #expect(offset == starts.last { $0 <= index }, "byte \(index)")
          #expect(!reason.isEmpty)
        }
      }
    }
  }

  /// Bytes cut short, or with anything after the last whole frame, are refused.
  @Test func aCutOrTrailingByteIsRefused() {
    let bytes = JournalFrames.encode(Self.records)
    let lastStart = bytes.count - RecordFormat.encode(Self.records[2]).count
    for cut in [1, 5, RecordFormat.headerLength, RecordFormat.headerLength + 1, bytes.count - lastStart - 1] {
      #expect(throws: JournalError.self, "cut \(cut)") {
        try JournalFrames.decode(Array(bytes.dropLast(cut)), source: "cut")
      }
    }
    #expect(throws: JournalError.self) { try JournalFrames.decode(bytes + [0], source: "trailing") }
    #expect(throws: JournalError.self) { try JournalFrames.decode(bytes + bytes.prefix(12), source: "trailing") }
  }
}
