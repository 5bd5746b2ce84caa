/// Why the bytes at an offset of a segment are not the record expected there.
public enum RecordProblem: Error, Hashable, Sendable, CustomStringConvertible {
  /// Fewer than the 12 header bytes are left in the file.
  case truncatedHeader(available: Int)
  /// The header's check does not match its length and payload checksum.
  case headerCheckMismatch(stored: UInt32, computed: UInt32)
  /// The header's check matches but its length is 0 or above 2³⁰ bytes.
  case implausibleLength(UInt32)
  /// The payload runs past the end of the file.
  case truncatedPayload(length: Int, available: Int)
  /// The payload's bytes do not match its checksum.
  case payloadChecksumMismatch(stored: UInt32, computed: UInt32)
  /// The checksum matches, but the payload is not a journal record.
  case notARecord(String)
  /// A whole record whose version does not follow the previous one.
  case versionOutOfSequence(expected: UInt64, found: UInt64)

  /// Whether a crash in the middle of an append can leave this: a record cut
  /// short, or bytes the kernel had not written yet (zeros, stale data).
  /// A whole record with a matching checksum that is not a record, or has
  /// the wrong version, cannot come from a torn write.
  public var couldBeTornWrite: Bool {
    switch self {
    case .truncatedHeader, .headerCheckMismatch, .implausibleLength, .truncatedPayload, .payloadChecksumMismatch:
      true
    case .notARecord, .versionOutOfSequence:
      false
    }
  }

  public var description: String {
    switch self {
    case .truncatedHeader(let available):
      "the record header is cut short: \(available) of \(RecordFormat.headerLength) bytes"
    case .headerCheckMismatch(let stored, let computed):
      "the record header's check does not match (stored \(hex(stored)), computed \(hex(computed)))"
    case .implausibleLength(let length):
      "the record header announces \(length) bytes, outside 1…\(RecordFormat.maximumPayloadLength)"
    case .truncatedPayload(let length, let available):
      "the record is cut short: its payload has \(available) of \(length) bytes"
    case .payloadChecksumMismatch(let stored, let computed):
      "the record's checksum does not match its payload (stored \(hex(stored)), computed \(hex(computed)))"
    case .notARecord(let detail):
      "the record's checksum matches but it is not a journal record: \(detail)"
    case .versionOutOfSequence(let expected, let found):
      found == expected + 1
        ? "version \(expected) is missing: the record after version \(expected - 1) is version \(found)"
        : found > expected
          ? "versions \(expected)…\(found - 1) are missing: the record after version \(expected - 1) is version \(found)"
          : "version \(found) comes where version \(expected) was expected (versions must be contiguous)"
    }
  }
}

/// A whole record found in a segment's bytes.
struct ScannedRecord: Hashable, Sendable {
  /// The offset of its header in the file.
  var offset: Int
  var payloadLength: Int
  var layout: PayloadLayout

  var version: UInt64 { layout.version }
  var payloadOffset: Int { offset + RecordFormat.headerLength }
  /// The offset just past the record.
  var end: Int { payloadOffset + payloadLength }
}

/// What a segment's bytes hold: its header and whole records up to `end`,
/// then either the end of the file or `damage`.
struct SegmentContents: Hashable, Sendable {
  var header: SegmentHeader
  var headerLength: Int
  /// The offset just past the last whole, in-sequence record (the header's
  /// end if there is none).
  var end: Int
  /// The number of whole records.
  var recordCount: Int
  /// What stopped the scan before the end of the file.
  var damage: Damage?

  /// A record that could not be read, and where.
  struct Damage: Hashable, Sendable {
    var offset: Int
    var problem: RecordProblem
  }
}

/// Reads records out of a segment's bytes, checking each header check,
/// checksum, payload and version.
enum RecordReader {
  /// The record at `offset` of `bytes`.
  static func record(in bytes: UnsafeRawBufferPointer, at offset: Int) throws(RecordProblem) -> ScannedRecord {
    let available = bytes.count - offset
    guard available >= RecordFormat.headerLength else { throw .truncatedHeader(available: available) }
    let storedCheck = bytes.bigEndianUInt32(at: offset + 8)
    let computedCheck = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 8]))
    guard storedCheck == computedCheck else { throw .headerCheckMismatch(stored: storedCheck, computed: computedCheck) }
    let length = bytes.bigEndianUInt32(at: offset)
    guard length > 0, length <= RecordFormat.maximumPayloadLength else { throw .implausibleLength(length) }
    let payloadOffset = offset + RecordFormat.headerLength
    let payloadLength = Int(length)
    guard bytes.count - payloadOffset >= payloadLength else {
      throw .truncatedPayload(length: payloadLength, available: bytes.count - payloadOffset)
    }
    let payload = UnsafeRawBufferPointer(rebasing: bytes[payloadOffset..<payloadOffset + payloadLength])
    let storedChecksum = bytes.bigEndianUInt32(at: offset + 4)
    let computedChecksum = CRC32C.checksum(payload)
    guard storedChecksum == computedChecksum else {
      throw .payloadChecksumMismatch(stored: storedChecksum, computed: computedChecksum)
    }
    do {
      let layout = try PayloadScanner.scan(payload)
      return ScannedRecord(offset: offset, payloadLength: payloadLength, layout: layout)
    } catch {
      throw .notARecord(error.description)
    }
  }

  /// Reads the header and every whole record of a segment, calling `visit`
  /// with each in order, until the end of the file or the first damage.
  static func scanSegment(
    _ bytes: UnsafeRawBufferPointer, visit: (ScannedRecord) -> Void
  ) throws(SegmentHeader.Problem) -> SegmentContents {
    let (header, headerLength) = try SegmentHeader.decode(bytes)
    var contents = SegmentContents(header: header, headerLength: headerLength, end: headerLength, recordCount: 0)
    var expected = header.firstVersion
    while contents.end < bytes.count {
      let record: ScannedRecord
      do {
        record = try self.record(in: bytes, at: contents.end)
      } catch {
        contents.damage = .init(offset: contents.end, problem: error)
        break
      }
      guard record.version == expected else {
        contents.damage = .init(
          offset: contents.end, problem: .versionOutOfSequence(expected: expected, found: record.version))
        break
      }
      visit(record)
      contents.recordCount += 1
      contents.end = record.end
      expected &+= 1
    }
    return contents
  }

  /// The first whole record (header check, checksum and payload all valid)
  /// starting at `start` or later, whatever its version.
  ///
  /// Tries every byte offset, so it finds records after garbage of any
  /// length. This is what tells a torn tail (nothing valid follows) from
  /// damage in the middle (a valid record follows).
  static func nextValidRecord(in bytes: UnsafeRawBufferPointer, from start: Int) -> ScannedRecord? {
    var offset = max(start, 0)
    while bytes.count - offset >= RecordFormat.headerLength {
      if let record = try? record(in: bytes, at: offset) { return record }
      offset += 1
    }
    return nil
  }

  /// The versions of every whole record found from `start` on, resuming
  /// after each piece of damage: what a repair reports as dropped.
  static func readableVersions(in bytes: UnsafeRawBufferPointer, from start: Int) -> [UInt64] {
    var versions: [UInt64] = []
    var offset = start
    while let found = nextValidRecord(in: bytes, from: offset) {
      versions.append(found.version)
      offset = found.end
      while let next = try? record(in: bytes, at: offset) {
        versions.append(next.version)
        offset = next.end
      }
    }
    return versions
  }
}
