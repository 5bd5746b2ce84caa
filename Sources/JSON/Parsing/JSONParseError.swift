/// Why bytes are not a JSON text, and where: the byte offset of the problem.
///
/// Client input reaches the daemon through ``JSONParser``, so every message
/// names the offset and what would have been accepted there, e.g.
/// `expected ',' or '}' at byte 17, found 'x'`.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Hashable, Sendable {
    /// A byte other than what the grammar allows here; `found` is the byte.
    case unexpected(found: UInt8, expected: String)
    /// The input ended where `expected` was still required.
    case unexpectedEnd(expected: String)
    /// Bytes that are not well-formed UTF-8 (a stray continuation byte, an
    /// overlong form, an encoded surrogate, a value past U+10FFFF).
    case invalidUTF8
    /// An unescaped control character (U+0000 to U+001F) inside a string.
    case controlCharacterInString(UInt8)
    /// A backslash followed by something other than `" \ / b f n r t u`.
    case invalidEscape
    /// A `\u` escape of a UTF-16 surrogate that is not part of a valid pair.
    case unpairedSurrogate(UInt16)
    /// A number too large in magnitude for a `Double`.
    case numberOutOfRange(String)
    /// Arrays and objects nested deeper than the parser's limit.
    case nestingTooDeep(limit: Int)
    /// An object that names the same member twice.
    case duplicateKey(String)
  }

  /// The offset, from 0, of the byte where the problem was found.
  public let offset: Int
  /// What went wrong there.
  public let reason: Reason

  public init(offset: Int, reason: Reason) {
    self.offset = offset
    self.reason = reason
  }

  public var description: String {
    switch reason {
    case .unexpected(let found, let expected):
      "expected \(expected) at byte \(offset), found \(Self.describe(found))"
    case .unexpectedEnd(let expected):
      "unexpected end of input at byte \(offset): expected \(expected)"
    case .invalidUTF8:
      "invalid UTF-8 at byte \(offset): JSON text must be UTF-8 (escape other data, e.g. as base64)"
    case .controlCharacterInString(let byte):
      "control character \(Self.hex(byte)) in a string at byte \(offset): write it escaped (\\n, \\t, \\u00XX)"
    case .invalidEscape:
      #"invalid escape at byte \#(offset): expected one of \" \\ \/ \b \f \n \r \t \uXXXX"#
    case .unpairedSurrogate(let unit):
      "unpaired UTF-16 surrogate \\u\(String(unit, radix: 16, uppercase: true)) at byte \(offset): "
        + "a high surrogate (D800–DBFF) must be followed by a \\u escape of a low one (DC00–DFFF)"
    case .numberOutOfRange(let text):
      "number \(text) at byte \(offset) is out of the range of a 64-bit float"
    case .nestingTooDeep(let limit):
      "arrays and objects nested deeper than \(limit) levels at byte \(offset)"
    case .duplicateKey(let key):
      "duplicate member \"\(key)\" at byte \(offset): each key may appear once in an object"
    }
  }

  private static func describe(_ byte: UInt8) -> String {
    switch byte {
    case UInt8(ascii: "'"): #""'""#
    case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
    default: hex(byte)
    }
  }

  private static func hex(_ byte: UInt8) -> String {
    "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
  }
}
