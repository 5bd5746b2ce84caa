import Foundation
import TestSupport
import Testing

@testable import Journal

/// The test vector in docs/DURABILITY.md ("On-disk format"): a segment
/// holding one record, as a hex dump that must appear in the document
/// verbatim, and that recovery must read back.
@Suite(.ownThreads) struct OnDiskFormatDocumentTests {
  static let document: String = {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/DURABILITY.md")
    return (try? String(decoding: Data(contentsOf: url), as: UTF8.self)) ?? ""
  }()

  static let record = JournalRecord(
    version: 1, time: 1_700_000_000_000,
    origin: .object(["client": .string("tcactl"), "connection": .int(3)]),
    action: .object(["counter": .string("incrementButtonTapped")]),
    patch: .array([.object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(1)])]))

  static var bytes: [UInt8] {
    SegmentHeader(firstVersion: 1, epoch: "e1").encoded() + RecordFormat.encode(record)
  }

  @Test func hexDumpIsDocumented() {
    let dump = Self.hexDump(Self.bytes)
    #expect(Self.document.contains(dump), "docs/DURABILITY.md lacks the vector:\n\(dump)")
    #expect(Self.document.contains("CRC-32C of `123456789` is `0xE3069283`"))
  }

  /// The documented bytes, written as a segment, recover to the record.
  @Test func documentedBytesRecover() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: true)
    try Files.write(Self.bytes, to: directory.journal + "/00000000000000000001.journal")
    let (recovered, records) = try Journals.recover(directory.journal)
    #expect(records == [Self.record])
    #expect(recovered.epoch == "e1")
    #expect(recovered.report.events.isEmpty)
  }

  /// `hexdump -C` style: offset, 16 bytes, their printable characters.
  static func hexDump(_ bytes: [UInt8]) -> String {
    stride(from: 0, to: bytes.count, by: 16).map { start in
      let chunk = bytes[start..<min(start + 16, bytes.count)]
      let offset = String(start, radix: 16)
      let hex = chunk.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
      let text = String(chunk.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
      return String(repeating: "0", count: 8 - offset.count) + offset + "  "
        + hex.padding(toLength: 47, withPad: " ", startingAt: 0) + "  " + text
    }.joined(separator: "\n")
  }
}
