/// The header at the start of every segment file (docs/DURABILITY.md, "On-disk
/// format"):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `89 53 44 4A 0D 0A 1A 0A` (`\x89SDJ\r\n\x1A\n`) |
/// | 8 | 4 | format version, big-endian (``JournalFormat``: 1 or 2) |
/// | 12 | 8 | the version of the segment's first record, big-endian |
/// | 20 | 2 | length *L* of the epoch, big-endian (1…255) |
/// | 22 | *L* | the epoch (lineage id), UTF-8 |
/// | 22 + *L* | 4 | CRC-32C of bytes 0 ..< 22 + *L*, big-endian |
///
/// The magic is PNG's trick: the high first byte catches 7-bit transfers, the
/// `\r\n` and `\n` catch line-ending conversion, `\x1A` stops `type` on DOS.
/// A file that does not begin with it is not a journal segment and is refused
/// as such, never parsed as records.
struct SegmentHeader: Hashable, Sendable {
  static let magic: [UInt8] = [0x89, 0x53, 0x44, 0x4A, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The format this build writes and the newest it reads.
  static let formatVersion = JournalFormat.current
  /// Bytes before the epoch.
  static let fixedLength = 22

  /// The version of the first record the segment holds (also in its name).
  var firstVersion: UInt64
  /// The lineage of versions the segment belongs to.
  var epoch: String
  /// The format of the records the segment holds (``JournalFormat``): a
  /// writer appends only to a segment of the format it writes.
  var format = formatVersion

  /// The header's bytes.
  func encoded() -> [UInt8] {
    let epochBytes = Array(epoch.utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.fixedLength + epochBytes.count + 4)
    bytes.append(contentsOf: Self.magic)
    bytes.appendBigEndian(format)
    bytes.appendBigEndian(firstVersion)
    bytes.appendBigEndian(UInt16(epochBytes.count))
    bytes.append(contentsOf: epochBytes)
    bytes.appendBigEndian(CRC32C.checksum(bytes))
    return bytes
  }

  /// Why the start of a file is not a header this build can use.
  enum Problem: Error, Hashable, Sendable {
    /// The file does not begin with the magic: not a journal segment.
    case foreign(firstBytes: [UInt8])
    /// A journal segment of a newer format than this build reads.
    case unsupportedFormat(UInt32)
    /// The magic is right but the rest is not: cut short, a bad checksum, a
    /// format of 0, an epoch that is not UTF-8.
    case damaged(String)

    /// The problem as the error a reader of the segment at `path` throws,
    /// `lastGoodVersion` being the last version read whole before it.
    func journalError(path: String, lastGoodVersion: UInt64) -> JournalError {
      switch self {
      case .unsupportedFormat(let format):
        .unsupportedFormat(path: path, found: format, supported: SegmentHeader.formatVersion)
      case .foreign(let firstBytes):
        .foreignFile(path: path, firstBytes: firstBytes)
      case .damaged(let reason):
        .damaged(
          JournalDamage(
            path: path, offset: 0, problem: "its segment header is damaged: \(reason)", validRecordAfter: nil,
            lastGoodVersion: lastGoodVersion))
      }
    }
  }

  /// Reads the header at the start of `bytes`.
  ///
  /// - Returns: the header and its length in bytes.
  static func decode(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> (header: SegmentHeader, length: Int) {
    guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else {
      throw .foreign(firstBytes: Array(bytes.prefix(magic.count)))
    }
    guard bytes.count >= fixedLength else {
      throw .damaged("the header is cut short: \(bytes.count) bytes, at least \(fixedLength + 5) expected")
    }
    let format = bytes.bigEndianUInt32(at: 8)
    if format > formatVersion { throw .unsupportedFormat(format) }
    guard format >= 1 else { throw .damaged("format version 0 does not exist") }
    let epochLength = Int(bytes.bigEndianUInt16(at: 20))
    let length = fixedLength + epochLength + 4
    guard bytes.count >= length else {
      throw .damaged("the header is cut short: \(bytes.count) bytes, \(length) expected")
    }
    let stored = bytes.bigEndianUInt32(at: fixedLength + epochLength)
    let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<fixedLength + epochLength]))
    guard stored == computed else {
      throw .damaged(
        "the header's checksum does not match (stored \(hex(stored)), computed \(hex(computed)))")
    }
    let epochBytes = bytes[fixedLength..<fixedLength + epochLength]
    guard let epoch = String(validating: epochBytes, as: UTF8.self), Epoch.problem(epoch) == nil else {
      throw .damaged("the epoch is not a valid epoch string")
    }
    return (SegmentHeader(firstVersion: bytes.bigEndianUInt64(at: 12), epoch: epoch, format: format), length)
  }
}

/// `value` as 8 hexadecimal digits with `0x`, for checksums in messages.
func hex(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

/// Bytes as space-separated hexadecimal pairs, for messages about foreign files.
func hexBytes(_ bytes: some Sequence<UInt8>) -> String {
  bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
}
