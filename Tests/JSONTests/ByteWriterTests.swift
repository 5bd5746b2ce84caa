import JSON
import Testing

/// Bytes written into room counted beforehand: the frames and journal
/// records the daemon writes for every action.
@Suite struct ByteWriterTests {
  @Test func anArrayHoldsExactlyWhatWasWritten() {
    let bytes = ByteWriter.bytes(count: 4 + 9 + 1 + 3) { bytes in
      bytes.write(bigEndian: 0x0102_0304)
      bytes.write(#"{"id":12}"#)
      bytes.write(UInt8(ascii: "."))
      bytes.write([7, 8, 9])
    }
    #expect(bytes == [1, 2, 3, 4] + Array(#"{"id":12}"#.utf8) + [UInt8(ascii: "."), 7, 8, 9])
  }

  @Test(arguments: [
    0, 7, 9, 10, 99, 100, 12_345, -1, -9, -10, -12_345, Int.max, Int.min, Int(Int32.max), Int(Int32.min),
  ])
  func decimalsAreWrittenAsStringWritesThem(value: Int) {
    #expect(ByteWriter.decimalCount(of: value) == String(value).utf8.count)
    let bytes = ByteWriter.bytes(count: ByteWriter.decimalCount(of: value)) { $0.writeDecimal(value) }
    #expect(String(decoding: bytes, as: UTF8.self) == String(value))
  }

  @Test func unsignedAndNarrowIntegersToo() {
    for value: UInt64 in [0, 1, 10, UInt64.max] {
      let bytes = ByteWriter.bytes(count: ByteWriter.decimalCount(of: value)) { $0.writeDecimal(value) }
      #expect(String(decoding: bytes, as: UTF8.self) == String(value))
    }
    for value: Int8 in [Int8.min, -1, 0, Int8.max] {
      let bytes = ByteWriter.bytes(count: ByteWriter.decimalCount(of: value)) { $0.writeDecimal(value) }
      #expect(String(decoding: bytes, as: UTF8.self) == String(value))
    }
  }

  /// Every power of ten a `UInt64` holds and its neighbours, and random
  /// values of every width, as `String` writes them.
  @Test func decimalsAtEveryLength() {
    var values: [UInt64] = [0, UInt64.max]
    var power: UInt64 = 1
    for _ in 0..<20 {
      values += [power - 1, power, power + 1]
      if power > UInt64.max / 10 { break }
      power *= 10
    }
    var generator = SystemRandomNumberGenerator()
    values += (0..<2_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) >> (UInt64.random(in: 0..<64))
    }
    for value in values {
      #expect(Self.written(value) == String(value), "\(value)")
      #expect(Self.written(Int64(truncatingIfNeeded: value)) == String(Int64(truncatingIfNeeded: value)))
      #expect(Self.written(Int32(truncatingIfNeeded: value)) == String(Int32(truncatingIfNeeded: value)))
    }
  }

  private static func written<T: FixedWidthInteger>(_ value: T) -> String {
    String(
      decoding: ByteWriter.bytes(count: ByteWriter.decimalCount(of: value)) { $0.writeDecimal(value) }, as: UTF8.self)
  }

  /// Many bytes are written where they go, after what the array held, as
  /// a few are.
  @Test func manyBytesAreWrittenInPlace() {
    for count in [1_023, 1_024, 1_025, 70_000] {
      var output: [UInt8] = [9, 8]
      let payload = (0..<count - 4).map { UInt8(truncatingIfNeeded: $0) }
      ByteWriter.append(count: count, to: &output) { bytes in
        bytes.write(bigEndian: 0)
        bytes.write(payload)
        bytes.store(bigEndian: UInt32(count - 4), at: 0)
      }
      #expect(output[..<2] == [9, 8], "\(count)")
      let length = UInt32(count - 4)
      #expect(Array(output[2..<6]) == (0..<4).map { UInt8(truncatingIfNeeded: length >> (24 - 8 * $0)) }, "\(count)")
      #expect(Array(output[6...]) == payload, "\(count)")
      #expect(
        ByteWriter.bytes(count: count) {
          $0.write(bigEndian: 1)
          $0.write(payload)
        } == [0, 0, 0, 1] + payload)
    }
  }

  @Test func appendedAfterWhatTheArrayHeld() {
    var output: [UInt8] = [1, 2]
    ByteWriter.append(count: 4 + 3, to: &output) { bytes in
      bytes.write(bigEndian: 0)
      bytes.write("abc")
      // A header field stored once what follows it is known.
      #expect(Array(bytes.written(from: 4)) == Array("abc".utf8))
      bytes.store(bigEndian: UInt32(bytes.written(from: 4, to: 7).count), at: 0)
    }
    #expect(output == [1, 2, 0, 0, 0, 3] + Array("abc".utf8))
    ByteWriter.append(count: 0, to: &output) { _ in }
    #expect(output.count == 9)
    #expect(ByteWriter.bytes(count: 0) { _ in }.isEmpty)
  }
}
