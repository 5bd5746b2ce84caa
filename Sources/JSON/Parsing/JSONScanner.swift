/// Reads JSON text without building values: checks its syntax, skips whole
/// values, reads integers and strings where they stand, with no allocation.
/// For readers that need a few members of many documents and parse the rest
/// only on demand, as the journal does on recovery.
///
/// The syntax check is structural: brackets, strings and their escapes,
/// numbers and literals, nesting at most ``JSONParser/defaultMaximumDepth``
/// levels. UTF-8 validity, duplicate keys and number ranges are left to
/// ``JSONParser``, which reads a value when it is needed.
package struct JSONScanner {
  /// Why the bytes are not what the reader expected, and where.
  package struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset, from 0, of the byte where the problem was found.
    package let offset: Int
    /// What was expected there ("expected ':' after the member name").
    package let message: String

    package init(offset: Int, message: String) {
      self.offset = offset
      self.message = message
    }

    package var description: String { "\(message) at byte \(offset)" }
  }

  private let bytes: UnsafeRawBufferPointer
  /// The offset of the next byte to read.
  package var position = 0
  private var depth = 0

  /// A scanner at the start of `bytes`.
  package init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The offset just past the JSON value starting at `start` in `bytes`, or
  /// `nil` if there is no valid value there.
  package static func valueEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var scanner = JSONScanner(bytes)
    scanner.position = start
    do {
      try scanner.skipValue()
    } catch {
      return nil
    }
    return scanner.position
  }

  // MARK: Bytes

  /// The byte at ``position``, or `nil` at the end.
  @inline(__always) package func peek() -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  /// The byte `offset` bytes past ``position``, or `nil` past the end.
  @inline(__always) package func peek(at offset: Int) -> UInt8? {
    position + offset < bytes.count ? bytes[position + offset] : nil
  }

  /// Whether every byte has been read.
  @inline(__always) package var isAtEnd: Bool { position == bytes.count }

  /// Reads `byte`, or fails expecting what `expected` says.
  @inline(__always) package mutating func expect(_ byte: UInt8, _ expected: String) throws(Problem) {
    guard peek() == byte else { throw problem(expected) }
    position += 1
  }

  /// Skips spaces, tabs, line feeds and carriage returns.
  @inline(__always) package mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  /// The problem of the byte at ``position`` (or the end) not being `expected`.
  package func problem(_ expected: String) -> Problem {
    guard position < bytes.count else {
      return Problem(offset: position, message: "expected \(expected), found the end")
    }
    return Problem(offset: position, message: "expected \(expected)")
  }

  // MARK: Integers

  /// A non-negative integer without sign, fraction or exponent.
  package mutating func scanUnsigned() throws(Problem) -> UInt64 {
    let start = position
    guard let first = peek(), isDigit(first) else { throw problem("a non-negative integer") }
    if first == UInt8(ascii: "0") {
      position += 1
    } else {
      var value: UInt64 = 0
      while let byte = peek(), isDigit(byte) {
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (next, overflow2) = times10.addingReportingOverflow(UInt64(byte &- 0x30))
        guard !overflow1, !overflow2 else { throw Problem(offset: start, message: "an integer beyond UInt64") }
        value = next
        position += 1
      }
      try expectNumberEnd()
      return value
    }
    try expectNumberEnd()
    return 0
  }

  /// An integer with an optional minus sign, in the range of `Int64`.
  package mutating func scanSigned() throws(Problem) -> Int64 {
    let start = position
    let negative = peek() == UInt8(ascii: "-")
    if negative { position += 1 }
    let magnitude = try scanUnsigned()
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw Problem(offset: start, message: "an integer beyond Int64")
      }
      return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else { throw Problem(offset: start, message: "an integer beyond Int64") }
    return Int64(magnitude)
  }

  private func expectNumberEnd() throws(Problem) {
    if let byte = peek(),
      byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || isDigit(byte)
    {
      throw problem("an integer without fraction, exponent or leading zeros")
    }
  }

  // MARK: Skipping values

  /// Skips the JSON value at ``position``, checking its syntax.
  package mutating func skipValue() throws(Problem) {
    guard let byte = peek() else { throw problem("a JSON value") }
    switch byte {
    case UInt8(ascii: "{"):
      try enter()
      position += 1
      skipWhitespace()
      if peek() == UInt8(ascii: "}") {
        position += 1
      } else {
        while true {
          skipWhitespace()
          guard peek() == UInt8(ascii: "\"") else { throw problem("'\"' to begin a member name") }
          try skipString()
          skipWhitespace()
          try expect(UInt8(ascii: ":"), "':' after the member name")
          skipWhitespace()
          try skipValue()
          skipWhitespace()
          if peek() == UInt8(ascii: ",") {
            position += 1
            continue
          }
          try expect(UInt8(ascii: "}"), "',' or '}'")
          break
        }
      }
      depth -= 1
    case UInt8(ascii: "["):
      try enter()
      position += 1
      skipWhitespace()
      if peek() == UInt8(ascii: "]") {
        position += 1
      } else {
        while true {
          skipWhitespace()
          try skipValue()
          skipWhitespace()
          if peek() == UInt8(ascii: ",") {
            position += 1
            continue
          }
          try expect(UInt8(ascii: "]"), "',' or ']'")
          break
        }
      }
      depth -= 1
    case UInt8(ascii: "\""):
      try skipString()
    case UInt8(ascii: "t"):
      try skipLiteral("true")
    case UInt8(ascii: "f"):
      try skipLiteral("false")
    case UInt8(ascii: "n"):
      try skipLiteral("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try skipNumber()
    default:
      throw problem("a JSON value")
    }
  }

  private mutating func enter() throws(Problem) {
    depth += 1
    guard depth <= JSONParser.defaultMaximumDepth else {
      throw problem("at most \(JSONParser.defaultMaximumDepth) levels of nested arrays and objects")
    }
  }

  /// Skips the string starting at ``position`` (its opening quote) and
  /// returns the bytes between its quotes, escapes undecoded.
  @discardableResult
  package mutating func skipString() throws(Problem) -> UnsafeRawBufferPointer {
    // A local index and base pointer keep the hot loop in registers.
    guard let base = bytes.baseAddress else { throw problem("a string") }
    let count = bytes.count
    let start = position + 1
    var index = start
    while index < count {
      let byte = base.load(fromByteOffset: index, as: UInt8.self)
      if byte == UInt8(ascii: "\"") {
        position = index + 1
        return UnsafeRawBufferPointer(start: base + start, count: index - start)
      }
      if byte == UInt8(ascii: "\\") {
        index += 1
        guard index < count else {
          position = index
          throw problem("an escaped character")
        }
        switch base.load(fromByteOffset: index, as: UInt8.self) {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          index += 1
          for _ in 0..<4 {
            guard index < count, isHexDigit(base.load(fromByteOffset: index, as: UInt8.self)) else {
              position = index
              throw problem("a hexadecimal digit")
            }
            index += 1
          }
        default:
          position = index
          throw problem(#"one of \" \\ \/ \b \f \n \r \t \uXXXX after '\'"#)
        }
      } else if byte < 0x20 {
        position = index
        throw problem("no unescaped control character in a string")
      } else {
        index += 1
      }
    }
    position = index
    throw problem("'\"' to close the string")
  }

  private mutating func skipNumber() throws(Problem) {
    if peek() == UInt8(ascii: "-") { position += 1 }
    guard let first = peek(), isDigit(first) else { throw problem("a digit") }
    position += 1
    if first != UInt8(ascii: "0") {
      while let byte = peek(), isDigit(byte) { position += 1 }
    }
    if peek() == UInt8(ascii: ".") {
      position += 1
      guard let byte = peek(), isDigit(byte) else { throw problem("a digit after '.'") }
      while let byte = peek(), isDigit(byte) { position += 1 }
    }
    if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      position += 1
      if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
      guard let digit = peek(), isDigit(digit) else { throw problem("a digit in the exponent") }
      while let byte = peek(), isDigit(byte) { position += 1 }
    }
  }

  private mutating func skipLiteral(_ literal: StaticString) throws(Problem) {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - position >= count,
      UnsafeRawBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(
        UnsafeRawBufferPointer(start: literal.utf8Start, count: count))
    else { throw problem("'\(literal)'") }
    position += count
  }

  // MARK: Helpers

  private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  private func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
  }
}
