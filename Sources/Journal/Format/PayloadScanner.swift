import Glibc

/// Where the members of a record's payload are, found without building JSON
/// values: recovery reads a million records by checking each payload's
/// syntax and noting the byte ranges of `action`, `origin` and `patch`, which
/// are parsed only when a caller asks for them.
struct PayloadLayout: Hashable, Sendable {
  var version: UInt64
  var time: Int64
  /// Byte ranges within the payload.
  var action: Range<Int>
  var origin: Range<Int>
  var patch: Range<Int>
}

/// A single pass over a payload's bytes that checks its JSON syntax (with no
/// allocation) and finds the record's members.
///
/// The syntax check is structural: brackets, strings and their escapes,
/// numbers and literals. UTF-8 validity, duplicate keys inside nested values
/// and number ranges are checked by `JSONParser` when a member is decoded; a
/// record whose checksum matches was written by the journal from canonical
/// JSON, so those cannot fail unless the writer had a bug.
struct PayloadScanner {
  /// Why a payload is not a record: what was expected at which byte.
  struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    let offset: Int
    let message: String
    var description: String { "\(message) at byte \(offset) of the payload" }
  }

  private let bytes: UnsafeRawBufferPointer
  private var position = 0
  private var depth = 0
  /// The same nesting limit as `JSONParser`.
  private static let maximumDepth = 512

  private init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The layout of the payload `bytes`.
  static func scan(_ bytes: UnsafeRawBufferPointer) throws(Problem) -> PayloadLayout {
    var scanner = PayloadScanner(bytes)
    return try scanner.scanRecord()
  }

  private mutating func scanRecord() throws(Problem) -> PayloadLayout {
    skipWhitespace()
    try expect(UInt8(ascii: "{"), "'{' to open the record")
    var version: UInt64?
    var time: Int64?
    var action: Range<Int>?
    var origin: Range<Int>?
    var patch: Range<Int>?
    skipWhitespace()
    if peek() == UInt8(ascii: "}") { throw problem("the members action, origin, patch, time and version") }
    while true {
      skipWhitespace()
      let keyStart = position
      guard peek() == UInt8(ascii: "\"") else { throw problem("'\"' to begin a member name") }
      try skipString()
      let key = UnsafeRawBufferPointer(rebasing: bytes[keyStart + 1..<position - 1])
      skipWhitespace()
      try expect(UInt8(ascii: ":"), "':' after the member name")
      skipWhitespace()
      let valueStart = position
      switch Member(key) {
      case .version:
        guard version == nil else { throw Problem(offset: keyStart, message: "a second \"version\"") }
        version = try scanUnsigned()
      case .time:
        guard time == nil else { throw Problem(offset: keyStart, message: "a second \"time\"") }
        time = try scanSigned()
      case .action:
        guard action == nil else { throw Problem(offset: keyStart, message: "a second \"action\"") }
        try skipValue()
        action = valueStart..<position
      case .origin:
        guard origin == nil else { throw Problem(offset: keyStart, message: "a second \"origin\"") }
        try skipValue()
        origin = valueStart..<position
      case .patch:
        guard patch == nil else { throw Problem(offset: keyStart, message: "a second \"patch\"") }
        try skipValue()
        patch = valueStart..<position
      case nil:
        try skipValue()
      }
      skipWhitespace()
      guard let byte = peek() else { throw problem("',' or '}'") }
      position += 1
      if byte == UInt8(ascii: "}") { break }
      guard byte == UInt8(ascii: ",") else {
        position -= 1
        throw problem("',' or '}'")
      }
    }
    skipWhitespace()
    guard position == bytes.count else { throw problem("the end of the payload after the record") }
    guard let version else { throw Problem(offset: 0, message: "the record has no \"version\"") }
    guard let time else { throw Problem(offset: 0, message: "the record has no \"time\"") }
    guard let action else { throw Problem(offset: 0, message: "the record has no \"action\"") }
    guard let origin else { throw Problem(offset: 0, message: "the record has no \"origin\"") }
    guard let patch else { throw Problem(offset: 0, message: "the record has no \"patch\"") }
    return PayloadLayout(version: version, time: time, action: action, origin: origin, patch: patch)
  }

  /// The members the journal reads.
  private enum Member {
    case action, origin, patch, time, version

    init?(_ key: UnsafeRawBufferPointer) {
      // Compared with memcmp: this runs once per member of a million records.
      switch key.count {
      case 4 where Self.equal(key, "time"): self = .time
      case 5 where Self.equal(key, "patch"): self = .patch
      case 6 where Self.equal(key, "action"): self = .action
      case 6 where Self.equal(key, "origin"): self = .origin
      case 7 where Self.equal(key, "version"): self = .version
      default: return nil
      }
    }

    private static func equal(_ key: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
      memcmp(key.baseAddress!, name.utf8Start, name.utf8CodeUnitCount) == 0
    }
  }

  /// The offset just past the JSON value starting at `start` in `bytes`, or
  /// `nil` if there is no valid value there.
  static func valueEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var scanner = PayloadScanner(bytes)
    scanner.position = start
    do {
      try scanner.skipValue()
    } catch {
      return nil
    }
    return scanner.position
  }

  // MARK: Integers

  /// A non-negative integer without sign, fraction or exponent.
  private mutating func scanUnsigned() throws(Problem) -> UInt64 {
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
  private mutating func scanSigned() throws(Problem) -> Int64 {
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
    if let byte = peek(), byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || isDigit(byte) {
      throw problem("an integer without fraction, exponent or leading zeros")
    }
  }

  // MARK: Skipping values

  private mutating func skipValue() throws(Problem) {
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
    guard depth <= Self.maximumDepth else {
      throw problem("at most \(Self.maximumDepth) levels of nested arrays and objects")
    }
  }

  /// Skips the string starting at `position` (its opening quote).
  private mutating func skipString() throws(Problem) {
    // A local index and base pointer keep the hot loop in registers.
    guard let base = bytes.baseAddress else { throw problem("a string") }
    let count = bytes.count
    var index = position + 1
    while index < count {
      let byte = base.load(fromByteOffset: index, as: UInt8.self)
      if byte == UInt8(ascii: "\"") {
        position = index + 1
        return
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

  private func peek() -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  private mutating func expect(_ byte: UInt8, _ expected: String) throws(Problem) {
    guard peek() == byte else { throw problem(expected) }
    position += 1
  }

  private mutating func skipWhitespace() {
    while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  private func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
  }

  private func problem(_ expected: String) -> Problem {
    guard position < bytes.count else { return Problem(offset: position, message: "expected \(expected), found the end") }
    return Problem(offset: position, message: "expected \(expected)")
  }
}
