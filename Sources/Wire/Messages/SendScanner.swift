import JSON

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
  /// The `send` in `payload`, or nil if it is not one this reads.
  public static func send(from payload: [UInt8]) -> ClientMessage? {
    guard payload.count <= ClientLimits.sendBytes else { return nil }
    return payload.withUnsafeBytes { bytes in
      var scanner = JSONScanner(bytes)
      return send(from: &scanner)
    }
  }

  private static func send(from scanner: inout JSONScanner) -> ClientMessage? {
    var isSend = false
    var id: Int?
    var path: String?
    var arguments: [String]?
    var wait: Bool?
    guard take(UInt8(ascii: "{"), from: &scanner) else { return nil }
    if !take(UInt8(ascii: "}"), from: &scanner) {
      repeat {
        guard let key = member(from: &scanner), take(UInt8(ascii: ":"), from: &scanner) else { return nil }
        scanner.skipWhitespace()
        switch key {
        case .type where !isSend:
          guard let type = plainString(from: &scanner), matches(type, "send") else { return nil }
          isSend = true
        case .id where id == nil:
          // "-0" is left to the full parse.
          guard scanner.peek() != UInt8(ascii: "-") || scanner.peek(at: 1) != UInt8(ascii: "0"),
            let value = try? scanner.scanSigned(), let fitting = Int(exactly: value)
          else { return nil }
          id = fitting
        case .path where path == nil:
          guard let value = string(from: &scanner) else { return nil }
          path = value
        case .arguments where arguments == nil:
          guard let value = strings(from: &scanner) else { return nil }
          arguments = value
        case .wait where wait == nil:
          guard let value = boolean(from: &scanner) else { return nil }
          wait = value
        default:
          return nil
        }
      } while take(UInt8(ascii: ","), from: &scanner)
      guard take(UInt8(ascii: "}"), from: &scanner) else { return nil }
    }
    scanner.skipWhitespace()
    guard scanner.isAtEnd, isSend, let id, let path else { return nil }
    let given = arguments ?? []
    guard (try? ClientLimits.check(path: path, arguments: given)) != nil else { return nil }
    return .send(id: id, action: .path(path, arguments: given), wait: wait ?? false)
  }

  /// Skips whitespace, then takes `byte` if it comes next.
  private static func take(_ byte: UInt8, from scanner: inout JSONScanner) -> Bool {
    scanner.skipWhitespace()
    guard scanner.peek() == byte else { return false }
    scanner.position += 1
    return true
  }

  /// The members a `send` is read with here.
  private enum Member {
    case type, id, path, arguments, wait
  }

  /// The member a key names, matched on its bytes without making a string.
  private static func member(from scanner: inout JSONScanner) -> Member? {
    guard let key = plainString(from: &scanner) else { return nil }
    if matches(key, "type") { return .type }
    if matches(key, "id") { return .id }
    if matches(key, "path") { return .path }
    if matches(key, "arguments") { return .arguments }
    if matches(key, "wait") { return .wait }
    return nil
  }

  private static func matches(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    literal.withUTF8Buffer { literal in
      bytes.count == literal.count && bytes.elementsEqual(literal)
    }
  }

  /// A string of printable ASCII without escapes.
  private static func string(from scanner: inout JSONScanner) -> String? {
    plainString(from: &scanner).map { String(decoding: $0, as: UTF8.self) }
  }

  /// A string's bytes, where they are, if it is printable ASCII with no
  /// escapes (anything else is left to the full parse).
  private static func plainString(from scanner: inout JSONScanner) -> UnsafeRawBufferPointer? {
    scanner.skipWhitespace()
    guard scanner.peek() == UInt8(ascii: "\""), let content = try? scanner.skipString(),
      content.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") })
    else { return nil }
    return content
  }

  /// An array of strings.
  private static func strings(from scanner: inout JSONScanner) -> [String]? {
    guard take(UInt8(ascii: "["), from: &scanner) else { return nil }
    var values: [String] = []
    if take(UInt8(ascii: "]"), from: &scanner) { return values }
    repeat {
      guard let value = string(from: &scanner) else { return nil }
      values.append(value)
    } while take(UInt8(ascii: ","), from: &scanner)
    return take(UInt8(ascii: "]"), from: &scanner) ? values : nil
  }

  private static func boolean(from scanner: inout JSONScanner) -> Bool? {
    for (word, value) in [("true", true), ("false", false)] where scanner.peek() == word.utf8.first {
      for byte in word.utf8 {
        guard scanner.peek() == byte else { return nil }
        scanner.position += 1
      }
      return value
    }
    return nil
  }
}
