/// A strict RFC 8259 JSON parser: bytes in, a ``JSONValue`` out.
///
/// Everything a client sends the daemon goes through here, so the parser
/// accepts exactly the JSON grammar and fails with a ``JSONParseError`` —
/// never a crash — on anything else:
///
/// - any JSON value at the top level, surrounded by optional whitespace
///   (space, tab, line feed, carriage return) and nothing else;
/// - no trailing commas, no comments, no single quotes, no `NaN` or
///   `Infinity`, no leading zeros, no byte order mark;
/// - strings are well-formed UTF-8 with control characters escaped; `\u`
///   escapes of surrogate pairs combine, an unpaired surrogate is an error;
/// - an object naming a member twice is an error (RFC 6902 A.13 relies on it);
/// - a number without fraction or exponent that fits `Int` becomes
///   ``JSONValue/int(_:)``; any other number becomes ``JSONValue/double(_:)``
///   (correctly rounded), and one beyond the range of `Double` is an error;
/// - arrays and objects nest at most ``defaultMaximumDepth`` levels, so hostile
///   input cannot exhaust the stack.
public enum JSONParser {
  /// How deep arrays and objects may nest unless the caller says otherwise.
  public static let defaultMaximumDepth = 512

  /// Parses one JSON text.
  ///
  /// - Parameters:
  ///   - bytes: UTF-8 JSON text. Contiguous storage (`[UInt8]`, `Data`,
  ///     `String.UTF8View`) is read in place; other collections are copied once.
  ///   - maximumDepth: the deepest nesting of arrays and objects accepted.
  /// - Throws: ``JSONParseError`` naming the byte offset and what was expected.
  public static func parse(
    _ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth
  ) throws(JSONParseError) -> JSONValue {
    let parse = { (buffer: UnsafeBufferPointer<UInt8>) in
      Result { () throws(JSONParseError) -> JSONValue in
        var parser = ByteParser(bytes: buffer, maximumDepth: maximumDepth)
        return try parser.parseDocument()
      }
    }
    if let result = bytes.withContiguousStorageIfAvailable(parse) {
      return try result.get()
    }
    return try Array(bytes).withUnsafeBufferPointer(parse).get()
  }
}

/// The recursive-descent parser over one contiguous buffer.
///
/// Every read checks `position < bytes.count` first: the buffer's subscript is
/// not bounds-checked in optimised builds.
private struct ByteParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let maximumDepth: Int
  var position = 0
  var depth = 0
  /// Reused for strings with escapes.
  var scratch: [UInt8] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if position < bytes.count { throw failure(expected: "the end of the input after the JSON value") }
    return value
  }

  // MARK: Values

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard position < bytes.count else { throw failure(expected: "a JSON value") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try parseLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try parseLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try parseLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw failure(expected: "a JSON value")
    }
  }

  mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
    let expected = "'\(literal)'"
    for index in 0..<literal.utf8CodeUnitCount {
      guard position < bytes.count, bytes[position] == literal.utf8Start[index] else {
        throw failure(expected: expected)
      }
      position += 1
    }
  }

  mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    guard depth <= maximumDepth else {
      throw JSONParseError(offset: position, reason: .nestingTooDeep(limit: maximumDepth))
    }
    position += 1
  }

  mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    defer { depth -= 1 }
    var members: [JSONObject.Element] = []
    var keyOffsets: [Int] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(JSONObject())
    }
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw failure(expected: "'\"' to begin a member name")
      }
      keyOffsets.append(position)
      let key = try parseString()
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw failure(expected: "':' after the member name")
      }
      position += 1
      skipWhitespace()
      members.append((key, try parseValue()))
      skipWhitespace()
      guard position < bytes.count else { throw failure(expected: "',' or '}'") }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
      case UInt8(ascii: "}"):
        position += 1
        let (object, duplicate) = JSONObject.sorting(members)
        if let duplicate {
          throw JSONParseError(offset: keyOffsets[duplicate], reason: .duplicateKey(members[duplicate].key))
        }
        return .object(object)
      default:
        throw failure(expected: "',' or '}'")
      }
    }
  }

  mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    defer { depth -= 1 }
    var elements: [JSONValue] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard position < bytes.count else { throw failure(expected: "',' or ']'") }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
      case UInt8(ascii: "]"):
        position += 1
        return .array(elements)
      default:
        throw failure(expected: "',' or ']'")
      }
    }
  }

  // MARK: Numbers

  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = position
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    // Accumulated negatively so that Int.min fits.
    var accumulated = 0
    var fitsInt = true
    guard position < bytes.count, isDigit(bytes[position]) else { throw failure(expected: "a digit") }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) {
        throw failure(expected: "'.', 'e' or the end of the number (no leading zeros)")
      }
    } else {
      while position < bytes.count, isDigit(bytes[position]) {
        if fitsInt {
          let (times10, overflow1) = accumulated.multipliedReportingOverflow(by: 10)
          let (next, overflow2) = times10.subtractingReportingOverflow(Int(bytes[position] &- 0x30))
          accumulated = next
          fitsInt = !overflow1 && !overflow2
        }
        position += 1
      }
    }
    var isInteger = true
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else { throw failure(expected: "a digit after '.'") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
      isInteger = false
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw failure(expected: "a digit in the exponent")
      }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if isInteger && fitsInt {
      if negative { return .int(accumulated) }
      if accumulated != .min { return .int(-accumulated) }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let double = Double(text), double.isFinite else {
      throw JSONParseError(offset: start, reason: .numberOutOfRange(text))
    }
    return .double(double)
  }

  func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  // MARK: Strings

  /// Parses a string starting at its opening quote.
  mutating func parseString() throws(JSONParseError) -> String {
    position += 1
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        position += 1
        return string
      } else if byte == UInt8(ascii: "\\") {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        return try parseEscapedString()
      } else if byte < 0x20 {
        throw JSONParseError(offset: position, reason: .controlCharacterInString(byte))
      } else if byte < 0x80 {
        position += 1
      } else {
        position = try validatedUTF8Sequence(at: position).upperBound
      }
    }
    throw failure(expected: "'\"' to close the string")
  }

  /// The rest of a string that contains escapes, decoded through `scratch`.
  mutating func parseEscapedString() throws(JSONParseError) -> String {
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return String(decoding: scratch, as: UTF8.self)
      } else if byte == UInt8(ascii: "\\") {
        try parseEscape()
      } else if byte < 0x20 {
        throw JSONParseError(offset: position, reason: .controlCharacterInString(byte))
      } else if byte < 0x80 {
        scratch.append(byte)
        position += 1
      } else {
        let sequence = try validatedUTF8Sequence(at: position)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequence]))
        position = sequence.upperBound
      }
    }
    throw failure(expected: "'\"' to close the string")
  }

  /// Decodes the escape at `position` (a backslash) into `scratch`.
  mutating func parseEscape() throws(JSONParseError) {
    let escapeOffset = position
    position += 1
    guard position < bytes.count else { throw failure(expected: "an escaped character") }
    let decoded: UInt8
    switch bytes[position] {
    case UInt8(ascii: "\""): decoded = 0x22
    case UInt8(ascii: "\\"): decoded = 0x5C
    case UInt8(ascii: "/"): decoded = 0x2F
    case UInt8(ascii: "b"): decoded = 0x08
    case UInt8(ascii: "f"): decoded = 0x0C
    case UInt8(ascii: "n"): decoded = 0x0A
    case UInt8(ascii: "r"): decoded = 0x0D
    case UInt8(ascii: "t"): decoded = 0x09
    case UInt8(ascii: "u"):
      position += 1
      let unit = try parseHexQuad()
      let scalar: Unicode.Scalar?
      switch unit {
      case 0xD800...0xDBFF:
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        else { throw JSONParseError(offset: escapeOffset, reason: .unpairedSurrogate(unit)) }
        position += 2
        let low = try parseHexQuad()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw JSONParseError(offset: escapeOffset, reason: .unpairedSurrogate(unit))
        }
        scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
      case 0xDC00...0xDFFF:
        throw JSONParseError(offset: escapeOffset, reason: .unpairedSurrogate(unit))
      default:
        scalar = Unicode.Scalar(unit)
      }
      // Both branches above produce valid scalars; the fallback is unreachable.
      UTF8.encode(scalar ?? "\u{FFFD}") { scratch.append($0) }
      return
    default:
      throw JSONParseError(offset: escapeOffset, reason: .invalidEscape)
    }
    scratch.append(decoded)
    position += 1
  }

  /// Four hexadecimal digits at `position`.
  mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
    var unit: UInt16 = 0
    for _ in 0..<4 {
      guard position < bytes.count else { throw failure(expected: "a hexadecimal digit") }
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure(expected: "a hexadecimal digit")
      }
      unit = unit << 4 | UInt16(digit)
      position += 1
    }
    return unit
  }

  /// The bytes of the well-formed multi-byte UTF-8 sequence starting at
  /// `offset` (Unicode 15, table 3-7), or an error at the first bad byte.
  func validatedUTF8Sequence(at offset: Int) throws(JSONParseError) -> Range<Int> {
    let lead = bytes[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default:
      throw JSONParseError(offset: offset, reason: .invalidUTF8)
    }
    for index in offset + 1..<offset + length {
      guard index < bytes.count else {
        throw JSONParseError(offset: index, reason: .unexpectedEnd(expected: "the rest of a UTF-8 sequence"))
      }
      let range = index == offset + 1 ? secondRange : 0x80...0xBF
      guard range.contains(bytes[index]) else { throw JSONParseError(offset: index, reason: .invalidUTF8) }
    }
    return offset..<offset + length
  }

  // MARK: Helpers

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  /// The error for the byte at `position` (or the end of input) not being `expected`.
  func failure(expected: String) -> JSONParseError {
    guard position < bytes.count else {
      return JSONParseError(offset: position, reason: .unexpectedEnd(expected: expected))
    }
    return JSONParseError(offset: position, reason: .unexpected(found: bytes[position], expected: expected))
  }
}
