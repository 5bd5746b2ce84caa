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
    var index = digits
    if value < 0 { target.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self) }
    var magnitude = value.magnitude
    repeat {
      let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
      index -= 1
      target.storeBytes(
        of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remainder), toByteOffset: index, as: UInt8.self)
      magnitude = quotient
    } while magnitude > 0
  }

  /// How many bytes ``writeDecimal(_:)`` writes for `value`: its digits,
  /// and a sign if it is negative. Counted by comparisons with powers of
  /// ten, without dividing.
  @inlinable
  public static func decimalCount<T: FixedWidthInteger>(of value: T) -> Int {
    let magnitude = value.magnitude
    var count = 1
    var (power, overflow) = T.Magnitude(1).multipliedReportingOverflow(by: 10)
    while !overflow && magnitude >= power {
      count += 1
      (power, overflow) = power.multipliedReportingOverflow(by: 10)
    }
    return count + (value < 0 ? 1 : 0)
  }
}
