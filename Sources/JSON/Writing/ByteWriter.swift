/// Writes bytes one piece after another into room sized beforehand: what a
/// frame or a journal record is made of (literals, byte strings already
/// encoded, decimal integers) is counted first, the room is made once, and
/// each piece is copied into it with no check of the array's capacity or
/// uniqueness per piece, which the daemon's per-action messages and records
/// would otherwise pay several times over.
///
/// Every write checks that it fits: a count that was wrong stops the
/// process rather than writing past the room. Noncopyable, and handed to
/// the writing closure `inout` only, so that no copy outlives the room.
public struct ByteWriter: ~Copyable {
  @usableFromInline let base: UnsafeMutableRawPointer
  @usableFromInline let capacity: Int
  @usableFromInline var written = 0

  /// The bytes written so far.
  @inlinable public var count: Int { written }

  @usableFromInline init(base: UnsafeMutableRawPointer, capacity: Int) {
    (self.base, self.capacity) = (base, capacity)
  }

  /// An array of exactly `count` bytes, all written by `write`.
  @inlinable
  public static func bytes(count: Int, _ write: (inout ByteWriter) -> Void) -> [UInt8] {
    // The array is made by `reserveCapacity`, whose path is specialized for
    // bytes, where `Array(unsafeUninitializedCapacity:)` looks up the
    // array's storage type at run time.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    append(count: count, to: &bytes, write)
    return bytes
  }

  /// Appends `count` bytes, all written by `write`, to `output`. A few
  /// bytes (a frame, a record) are written in a temporary room on the stack
  /// and copied at once, which costs less than making room in the array
  /// first; more are written where they go, after the array is extended
  /// with zeros, so that a large patch is neither copied twice nor put on
  /// the stack.
  @inlinable
  public static func append(count: Int, to output: inout [UInt8], _ write: (inout ByteWriter) -> Void) {
    guard count > smallCount else {
      withUnsafeTemporaryAllocation(byteCount: Swift.max(count, 1), alignment: 1) { room in
        guard let base = room.baseAddress else { return }
        output.append(contentsOf: UnsafeRawBufferPointer(start: base, count: written(count: count, at: base, write)))
      }
      return
    }
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: count))
    output.withUnsafeMutableBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      _ = written(count: count, at: base + start, write)
    }
  }

  /// The most bytes written in a temporary room and copied.
  @usableFromInline static var smallCount: Int { 1024 }

  /// Has `write` write `count` bytes at `base`, and returns `count`.
  @inlinable
  static func written(count: Int, at base: UnsafeMutableRawPointer, _ write: (inout ByteWriter) -> Void) -> Int {
    var writer = ByteWriter(base: base, capacity: count)
    write(&writer)
    // invariant: the caller counted what it writes
    precondition(writer.count == count, "ByteWriter: \(writer.count) bytes written where \(count) were counted")
    return count
  }

  /// Room for `byteCount` more bytes, or a stop.
  @inlinable
  mutating func claim(_ byteCount: Int) -> UnsafeMutableRawPointer {
    // invariant: the caller counted what it writes
    precondition(byteCount <= capacity - count, "ByteWriter: a write past the \(capacity) bytes counted")
    defer { written += byteCount }
    return base + count
  }

  /// Writes one byte.
  @inlinable
  public mutating func write(_ byte: UInt8) {
    claim(1).storeBytes(of: byte, as: UInt8.self)
  }

  /// Writes `value` in four bytes, most significant first: a frame's
  /// length or a record header's field.
  @inlinable
  public mutating func write(bigEndian value: UInt32) {
    claim(4).storeBytes(of: value.bigEndian, as: UInt32.self)
  }

  /// Overwrites four bytes written earlier, at `offset`, with `value`,
  /// most significant first: a header field known only once what follows
  /// it is written.
  @inlinable
  public mutating func store(bigEndian value: UInt32, at offset: Int) {
    // invariant: the caller overwrites only what it wrote
    precondition(offset >= 0 && offset <= count - 4, "ByteWriter: a store outside the \(count) bytes written")
    (base + offset).storeBytes(of: value.bigEndian, as: UInt32.self)
  }

  /// The bytes written from `offset` up to `end` (by default, all written
  /// since `offset`).
  @inlinable
  public func written(from offset: Int, to end: Int? = nil) -> UnsafeRawBufferPointer {
    let end = end ?? count
    // invariant: the caller reads only what it wrote
    precondition(offset >= 0 && offset <= end && end <= count, "ByteWriter: a read outside the \(count) bytes written")
    return UnsafeRawBufferPointer(start: base + offset, count: end - offset)
  }

  /// Writes a literal's UTF-8 bytes.
  @inlinable
  public mutating func write(_ literal: StaticString) {
    let byteCount = literal.utf8CodeUnitCount
    claim(byteCount).copyMemory(from: literal.utf8Start, byteCount: byteCount)
  }

  /// Writes `bytes`.
  @inlinable
  public mutating func write(_ bytes: [UInt8]) {
    let target = claim(bytes.count)
    bytes.withUnsafeBytes { source in
      if let address = source.baseAddress { target.copyMemory(from: address, byteCount: source.count) }
    }
  }

  /// Writes `value` in plain decimal, as ``CanonicalJSON`` does; it takes
  /// ``decimalCount(of:)`` bytes.
  @inlinable
  public mutating func writeDecimal<T: FixedWidthInteger>(_ value: T) {
    let digits = Self.decimalCount(of: value)
    let target = claim(digits)
    if value < 0 { target.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self) }
    guard T.Magnitude.bitWidth <= 64 else {
      var index = digits
      var magnitude = value.magnitude
      repeat {
        let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
        index -= 1
        target.storeBytes(
          of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remainder), toByteOffset: index, as: UInt8.self)
        magnitude = quotient
      } while magnitude > 0
      return
    }
    Self.writeDigits(of: UInt64(truncatingIfNeeded: value.magnitude), endingAt: target + digits)
  }

  /// Writes the decimal digits of `magnitude` so that the last is just
  /// before `end`, two at a time from a table of the pairs "00" to "99".
  @inlinable
  static func writeDigits(of magnitude: UInt64, endingAt end: UnsafeMutableRawPointer) {
    let pairs = Self.digitPairs.utf8Start
    var magnitude = magnitude
    var end = end
    while magnitude >= 100 {
      let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 100)
      end -= 2
      end.copyMemory(from: pairs + Int(truncatingIfNeeded: remainder) &* 2, byteCount: 2)
      magnitude = quotient
    }
    if magnitude >= 10 {
      (end - 2).copyMemory(from: pairs + Int(truncatingIfNeeded: magnitude) &* 2, byteCount: 2)
    } else {
      (end - 1).storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude), as: UInt8.self)
    }
  }

  /// "00", "01", … "99", one after another.
  @usableFromInline static var digitPairs: StaticString {
    """
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
    5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
    """
  }

  /// How many bytes ``writeDecimal(_:)`` writes for `value`: its digits,
  /// and a sign if it is negative. Counted from the magnitude's bit width
  /// and one comparison with a power of ten, without dividing.
  @inlinable
  public static func decimalCount<T: FixedWidthInteger>(of value: T) -> Int {
    let sign = value < 0 ? 1 : 0
    guard T.Magnitude.bitWidth <= 64 else {
      let magnitude = value.magnitude
      var count = 1
      var (power, overflow) = T.Magnitude(1).multipliedReportingOverflow(by: 10)
      while !overflow && magnitude >= power {
        count += 1
        (power, overflow) = power.multipliedReportingOverflow(by: 10)
      }
      return count + sign
    }
    return digitCount(of: UInt64(truncatingIfNeeded: value.magnitude)) + sign
  }

  /// The decimal digits of `magnitude`: 1233 / 4096 is just under
  /// log10(2), so the bit width times it is the digits of the smallest
  /// number of that width, or one fewer; one comparison says which. Powers
  /// of ten above one are even, so setting the lowest bit (which makes the
  /// count of zero one) never crosses one.
  @inlinable
  static func digitCount(of magnitude: UInt64) -> Int {
    let odd = magnitude | 1
    let bits = UInt64.bitWidth - odd.leadingZeroBitCount
    let estimate = (bits &* 1233) >> 12
    return odd >= powerOfTen(estimate) ? estimate + 1 : estimate
  }

  /// 10 to the power `exponent`, for 0 through 19, from a table.
  @inlinable
  static func powerOfTen(_ exponent: Int) -> UInt64 {
    switch exponent {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    case 8: 100_000_000
    case 9: 1_000_000_000
    case 10: 10_000_000_000
    case 11: 100_000_000_000
    case 12: 1_000_000_000_000
    case 13: 10_000_000_000_000
    case 14: 100_000_000_000_000
    case 15: 1_000_000_000_000_000
    case 16: 10_000_000_000_000_000
    case 17: 100_000_000_000_000_000
    case 18: 1_000_000_000_000_000_000
    case 19: 10_000_000_000_000_000_000
    default: .max  // beyond any UInt64: never reached by digitCount(of:)
    }
  }
}
