/// Reads the commonest message, a `send` by path
/// (`{"type":"send","id":7,"path":"counter.incrementButtonTapped","arguments":["3"]}`),
/// straight from its bytes into a ``ClientMessage``, without building its
/// JSON value first: the daemon reads one for every action a client sends.
///
/// It takes only what it can read exactly as the full parse would: the
/// members `type` (`"send"`), `id` (a plain integer), `path` (a string),
/// `arguments` (an array of strings) and `wait` (`true` or `false`), each at
/// most once, in any order, with JSON's whitespace between the tokens, and
/// strings of printable ASCII without escapes. For anything else (another
/// member, an escape, a number written otherwise, `null`, a limit passed)
/// it returns nil, and the message is parsed in full, which also says what
/// is wrong with it.
public enum SendScanner {
  /// The `send` in the payload `bytes`, or nil if it is not one this reads.
  ///
  /// `recentPath` is the path read last from the same client: a client
  /// sends the same few actions again and again, so a path with its bytes
  /// is that string again, shared rather than made anew; another path
  /// takes its place.
  public static func send(from bytes: UnsafeRawBufferPointer, recentPath: inout String) -> ClientMessage? {
    guard bytes.count <= ClientLimits.sendBytes, let base = bytes.baseAddress else { return nil }
    var cursor = Cursor(base: base, end: bytes.count)
    return send(from: &cursor, recentPath: &recentPath)
  }

  private static func send(from cursor: inout Cursor, recentPath: inout String) -> ClientMessage? {
    var isSend = false
    var id: Int?
    var path: String?
    var arguments: [String]?
    var wait: Bool?
    guard cursor.take(UInt8(ascii: "{")) else { return nil }
    if !cursor.take(UInt8(ascii: "}")) {
      repeat {
        guard let key = member(from: &cursor), cursor.take(UInt8(ascii: ":")) else { return nil }
        cursor.skipWhitespace()
        switch key {
        case .type where !isSend:
          guard let type = cursor.plainString(), matches(type, "send") else { return nil }
          isSend = true
        case .id where id == nil:
          guard let value = cursor.integer() else { return nil }
          id = value
        case .path where path == nil:
          guard let value = cursor.plainString() else { return nil }
          if !recentPath.hasUTF8(value) { recentPath = String(decoding: value, as: UTF8.self) }
          path = recentPath
        case .arguments where arguments == nil:
          guard let value = strings(from: &cursor) else { return nil }
          arguments = value
        case .wait where wait == nil:
          guard let value = cursor.boolean() else { return nil }
          wait = value
        default:
          return nil
        }
      } while cursor.take(UInt8(ascii: ","))
      guard cursor.take(UInt8(ascii: "}")) else { return nil }
    }
    cursor.skipWhitespace()
    guard cursor.isAtEnd, isSend, let id, let path else { return nil }
    let given = arguments ?? []
    guard (try? ClientLimits.check(path: path, arguments: given)) != nil else { return nil }
    return .send(id: id, action: .path(path, arguments: given), wait: wait ?? false)
  }

  /// The members a `send` is read with here.
  private enum Member {
    case type, id, path, arguments, wait
  }

  /// The member a key names, matched on its bytes without making a string.
  private static func member(from cursor: inout Cursor) -> Member? {
    guard let key = cursor.plainString() else { return nil }
    if matches(key, "type") { return .type }
    if matches(key, "id") { return .id }
    if matches(key, "path") { return .path }
    if matches(key, "arguments") { return .arguments }
    if matches(key, "wait") { return .wait }
    return nil
  }

  private static func matches(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    guard let base = bytes.baseAddress else { return literal.utf8CodeUnitCount == 0 }
    return bytes.count == literal.utf8CodeUnitCount && equal(base, literal)
  }

  /// Whether the bytes at `pointer` begin with `literal`'s, which the caller
  /// has checked are there to read.
  private static func equal(_ pointer: UnsafeRawPointer, _ literal: StaticString) -> Bool {
    let literalBytes = literal.utf8Start
    for offset in 0..<literal.utf8CodeUnitCount
    where pointer.load(fromByteOffset: offset, as: UInt8.self) != literalBytes[offset] {
      return false
    }
    return true
  }

  /// An array of strings.
  private static func strings(from cursor: inout Cursor) -> [String]? {
    guard cursor.take(UInt8(ascii: "[")) else { return nil }
    var values: [String] = []
    if cursor.take(UInt8(ascii: "]")) { return values }
    repeat {
      guard let value = cursor.plainString() else { return nil }
      values.append(String(decoding: value, as: UTF8.self))
    } while cursor.take(UInt8(ascii: ","))
    return cursor.take(UInt8(ascii: "]")) ? values : nil
  }

  /// Where the scan is in the payload: its bytes are read in place, and
  /// everything the scanner does not read exactly is a nil.
  private struct Cursor {
    let base: UnsafeRawPointer
    let end: Int
    var position = 0

    init(base: UnsafeRawPointer, end: Int) {
      (self.base, self.end) = (base, end)
    }

    var isAtEnd: Bool { position == end }

    func peek() -> UInt8? {
      position < end ? base.load(fromByteOffset: position, as: UInt8.self) : nil
    }

    /// Skips spaces, tabs, line feeds and carriage returns.
    mutating func skipWhitespace() {
      while position < end {
        switch base.load(fromByteOffset: position, as: UInt8.self) {
        case 0x20, 0x0A, 0x0D, 0x09: position += 1
        default: return
        }
      }
    }

    /// Skips whitespace, then takes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard peek() == byte else { return false }
      position += 1
      return true
    }

    /// A string's bytes, where they are, if it is printable ASCII with no
    /// escapes (anything else is left to the full parse).
    mutating func plainString() -> UnsafeRawBufferPointer? {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else { return nil }
      let start = position + 1
      var index = start
      // Eight bytes at a time: the first byte that ends the string or is
      // one the scan leaves to the full parse is found in one step, and
      // the bytes loop below reads only the last few.
      while index + 8 <= end {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let flags = Self.specialBytes(word)
        guard flags != 0 else {
          index += 8
          continue
        }
        index += flags.trailingZeroBitCount >> 3
        guard base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: "\"") else { return nil }
        position = index + 1
        return UnsafeRawBufferPointer(start: base + start, count: index - start)
      }
      while index < end {
        let byte = base.load(fromByteOffset: index, as: UInt8.self)
        if byte == UInt8(ascii: "\"") {
          position = index + 1
          return UnsafeRawBufferPointer(start: base + start, count: index - start)
        }
        guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
        index += 1
      }
      return nil
    }

    /// The high bit of each of the eight bytes in `word` (the first in
    /// the lowest bits) that is a quote, a backslash, a control character
    /// or not printable ASCII. A byte above one that is may be flagged too
    /// (a borrow carries into it), but the lowest flag is always exact.
    static func specialBytes(_ word: UInt64) -> UInt64 {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      func zeros(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
      let below20 = (word &- ones &* 0x20) & ~word & highs
      return below20 | (word & highs) | zeros(word ^ (ones &* 0x22)) | zeros(word ^ (ones &* 0x5C))
        | zeros(word ^ (ones &* 0x7F))
    }

    /// An integer as JSON writes it, with no fraction, exponent or leading
    /// zero, in the range of `Int`; "-0" is left to the full parse.
    mutating func integer() -> Int? {
      var index = position
      let negative = peek() == UInt8(ascii: "-")
      if negative { index += 1 }
      let digits = index
      // The magnitude, negative, so that Int.min fits.
      var value = 0
      while index < end {
        let digit = Int(base.load(fromByteOffset: index, as: UInt8.self)) &- 0x30
        guard digit >= 0, digit <= 9 else { break }
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (next, overflow2) = times10.subtractingReportingOverflow(digit)
        guard !overflow1, !overflow2 else { return nil }
        value = next
        index += 1
      }
      let count = index - digits
      guard count > 0 else { return nil }
      if base.load(fromByteOffset: digits, as: UInt8.self) == UInt8(ascii: "0"), count > 1 || negative {
        return nil
      }
      if index < end {
        let next = base.load(fromByteOffset: index, as: UInt8.self)
        if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
      }
      if !negative {
        guard value != .min else { return nil }
        value = -value
      }
      position = index
      return value
    }

    mutating func boolean() -> Bool? {
      if matchesLiteral("true") { return true }
      if matchesLiteral("false") { return false }
      return nil
    }

    /// Takes `literal` if it comes next.
    private mutating func matchesLiteral(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard end - position >= count, SendScanner.equal(base + position, literal) else { return false }
      position += count
      return true
    }
  }
}
