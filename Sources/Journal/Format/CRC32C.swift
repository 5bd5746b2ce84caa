import CIntrinsics

/// CRC-32C (Castagnoli): the checksum of every journal record, segment header
/// and snapshot.
///
/// The parameters are those of iSCSI, ext4 and LevelDB (RFC 3720, B.4):
/// polynomial 0x1EDC6F41 (0x82F63B78 bit-reflected), input and output
/// reflected, initial value and final XOR 0xFFFFFFFF. The check value, the
/// checksum of the ASCII bytes `123456789`, is 0xE3069283.
///
/// Castagnoli's polynomial detects every burst error up to 32 bits and has a
/// larger minimum Hamming distance than the CRC-32 of zip at record sizes,
/// which is why storage formats prefer it.
///
/// Recovery checksums every byte of the journal and the daemon every record
/// it writes, so this is on both critical paths. Where the CPU has SSE 4.2,
/// its `crc32` instruction takes eight bytes a step (`CIntrinsics`);
/// elsewhere the tables do, "slicing by 8": eight 256-entry tables let each
/// step consume eight bytes with eight lookups, several times faster than
/// the one-table byte loop, which handles the remaining tail.
public struct CRC32C: Sendable, Hashable {
  /// The running register, before the final XOR.
  private var register: UInt32 = 0xFFFF_FFFF

  /// An empty checksum, ready for ``update(_:)``.
  public init() {}

  /// The checksum of everything given to ``update(_:)`` so far.
  public var value: UInt32 { register ^ 0xFFFF_FFFF }

  /// The checksum of `bytes`.
  public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }

  /// The checksum of the bytes in `buffer`.
  public static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32C()
    crc.update(buffer)
    return crc.value
  }

  /// Adds `bytes` to the checksum. Contiguous storage is read in place.
  public mutating func update(_ bytes: some Collection<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
    if done == nil {
      Array(bytes).withUnsafeBytes { update($0) }
    }
  }

  /// Adds the bytes in `buffer` to the checksum: with the CPU's CRC-32C
  /// instruction where it has one (SSE 4.2), by the tables otherwise.
  public mutating func update(_ buffer: UnsafeRawBufferPointer) {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
    if Self.hasInstruction {
      register = cintrinsics_crc32c(register, base, buffer.count)
    } else {
      updateByTables(buffer)
    }
  }

  /// Whether this CPU computes CRC-32C in an instruction.
  static let hasInstruction = cintrinsics_has_crc32c() != 0

  /// ``update(_:)`` by the tables, whatever the CPU.
  mutating func updateByTables(_ buffer: UnsafeRawBufferPointer) {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
    var crc = register
    var position = 0
    let count = buffer.count
    Self.tables.withUnsafeBufferPointer { table in
      while count - position >= 8 {
        // Eight bytes as two little-endian words, whatever their alignment.
        let low = base.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian ^ crc
        let high = base.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self).littleEndian
        crc =
          table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
          ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
        position += 8
      }
      while position < count {
        let byte = base.load(fromByteOffset: position, as: UInt8.self)
        crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        position += 1
      }
    }
    register = crc
  }

  /// The reflected Castagnoli polynomial.
  static let polynomial: UInt32 = 0x82F6_3B78

  /// Eight tables of 256 entries, one after the other. Table 0 is the classic
  /// byte-at-a-time table; table k advances a byte's contribution by k more
  /// zero bytes, so the eight lookups of one step can be XORed together.
  static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for index in 0..<256 {
      var crc = UInt32(index)
      for _ in 0..<8 {
        crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1
      }
      tables[index] = crc
    }
    for index in 0..<256 {
      for slice in 1..<8 {
        let previous = tables[(slice - 1) * 256 + index]
        tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()
}
