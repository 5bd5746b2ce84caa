import Testing

@testable import Journal

@Suite struct CRC32CTests {
  /// The standard check value: CRC-32C of the ASCII digits 1 to 9.
  @Test func checkValue() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
  }

  /// RFC 3720 (iSCSI), appendix B.4: 32 bytes of zeros, of ones, ascending
  /// and descending.
  @Test func iSCSIVectors() {
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
  }

  @Test func emptyInputIsZero() {
    #expect(CRC32C.checksum([UInt8]()) == 0)
  }

  /// The eight-byte steps and the byte-at-a-time tail agree with a bitwise
  /// reference for every length and alignment up to 64 bytes.
  @Test func slicingMatchesBitwiseReference() {
    var generator = SystemRandomNumberGenerator()
    let data = (0..<80).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for start in 0..<8 {
      for length in 0...64 {
        let slice = Array(data[start..<start + length])
        #expect(CRC32C.checksum(slice) == bitwise(slice), "start \(start), length \(length)")
      }
    }
  }

  /// The CPU's instruction, where the CPU has one, and the tables give the
  /// same checksums, at eight alignments and lengths on both sides of the
  /// eight-byte steps.
  @Test func theInstructionAndTheTablesAgree() {
    var generator = SystemRandomNumberGenerator()
    let data = (0..<4_200).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for start in 0..<8 {
      for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 4_000] {
        data[start..<start + length].withUnsafeBytes { bytes in
          var (either, tables) = (CRC32C(), CRC32C())
          either.update(bytes)
          tables.updateByTables(bytes)
          #expect(either == tables, "start \(start), length \(length)")
          #expect(either.value == bitwise(Array(bytes)), "start \(start), length \(length)")
        }
      }
    }
  }

  /// Feeding the bytes in pieces gives the checksum of the whole.
  @Test func incrementalUpdates() {
    let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
    for split in 0...bytes.count {
      var crc = CRC32C()
      crc.update(bytes[..<split])
      crc.update(bytes[split...])
      #expect(crc.value == 0x2262_0404)
    }
  }

  /// A bit-at-a-time CRC-32C, the definition the tables are derived from.
  private func bitwise(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
