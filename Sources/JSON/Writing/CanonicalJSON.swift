/// The one byte form of a JSON value: what the daemon sends, journals and
/// checksums, so that equal states are equal bytes.
///
/// The rules (docs/PROTOCOL.md, "State as JSON"):
///
/// - no whitespace at all;
/// - object members sorted by the UTF-8 bytes of their keys;
/// - strings escape only what RFC 8259 requires: `"` and `\` as `\"` and
///   `\\`, control characters as `\b \f \n \r \t` or `\u00XX` (lowercase hex);
///   everything else, `/` and non-ASCII included, is literal UTF-8;
/// - integers in plain decimal;
/// - fractional numbers in the shortest form that reads back as the same
///   `Double` (Swift's `description`: `0.1`, `1.0`, `1e-07`, `1e+16`), with
///   `-0.0` written as `0.0` because the two compare equal.
///
/// Non-finite doubles have no JSON form. Values that come from `Codable`
/// never hold one (``JSONValueEncoder`` writes them as strings, and
/// ``JSONParser`` rejects numbers out of range); a hand-built `.double(.nan)` or `.infinity` is
/// written as `null`, like JavaScript's `JSON.stringify`, so the output is
/// always valid JSON.
///
/// Strings are written as their own UTF-8, not normalised: two strings Swift
/// considers equal because they are canonically equivalent (precomposed `é`
/// and `e` + U+0301) give different bytes. State produced by the same code is
/// consistently encoded, so this does not arise in practice.
public enum CanonicalJSON {
  /// The canonical bytes of `value`.
  public static func encode(_ value: JSONValue) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(64)
    write(value, to: &output)
    return output
  }

  /// Appends the canonical bytes of `value` to `output`.
  public static func write(_ value: JSONValue, to output: inout [UInt8]) {
    switch value {
    case .null:
      output.append(literal: "null")
    case .bool(let bool):
      output.append(literal: bool ? "true" : "false")
    case .int(let int):
      writeInteger(int, to: &output)
    case .double(let double):
      writeDouble(double, to: &output)
    case .string(let string):
      writeString(string, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        write(element, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      // Members are kept in canonical order (``JSONObject``).
      output.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        writeMember(member.key, member.value, to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  private static func writeMember(_ key: String, _ value: JSONValue, to output: inout [UInt8]) {
    writeString(key, to: &output)
    output.append(UInt8(ascii: ":"))
    write(value, to: &output)
  }

  /// Appends `value` in plain decimal, as `String(value)` would, without
  /// making the string (``ByteWriter/writeDecimal(_:)``). Inlinable, so that
  /// it is specialized for the integer type where it is used: generic, it
  /// cost thirty times as much.
  @inlinable public static func writeInteger<T: FixedWidthInteger>(_ value: T, to output: inout [UInt8]) {
    ByteWriter.append(count: ByteWriter.decimalCount(of: value), to: &output) { $0.writeDecimal(value) }
  }

  private static func writeDouble(_ double: Double, to output: inout [UInt8]) {
    guard double.isFinite else {
      output.append(literal: "null")
      return
    }
    // Swift's description is the shortest digits that round-trip, in the
    // forms `123.0`, `0.001`, `1e-07`, `1.5e+300`: all valid JSON numbers.
    output.append(contentsOf: (double == 0 ? 0.0 : double).description.utf8)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends `string` as a canonical JSON string.
  package static func writeString(_ string: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      guard utf8.contains(where: needsEscape) else {
        output.append(contentsOf: utf8)
        return
      }
      for byte in utf8 {
        guard needsEscape(byte) else {
          output.append(byte)
          continue
        }
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: output.append(UInt8(ascii: "\""))
        case 0x5C: output.append(UInt8(ascii: "\\"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
          output.append(literal: "u00")
          output.append(hexDigits[Int(byte >> 4)])
          output.append(hexDigits[Int(byte & 0xF)])
        }
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// Writes `pointer`'s string form (``JSONPointer/description``) as a
  /// JSON string, as ``writeString(_:to:)`` would, without making the form
  /// first: each token straight from its bytes when none needs escaping, as
  /// a state's keys and indices do not.
  package static func writePointer(_ pointer: JSONPointer, to output: inout [UInt8]) {
    let start = output.count
    output.append(UInt8(ascii: "\""))
    for token in pointer.tokens {
      output.append(UInt8(ascii: "/"))
      var token = token
      let plain = token.withUTF8 { bytes in
        for byte in bytes where needsEscape(byte) || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
          return false
        }
        output.append(contentsOf: bytes)
        return true
      }
      guard plain else {
        output.removeSubrange(start...)
        return writeString(pointer.description, to: &output)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C
  }

  // MARK: Codable values

  /// The JSON value `encodable` encodes to (``JSONValueEncoder``): dates
  /// in ISO 8601 with milliseconds (``JSONDate``), non-finite numbers as
  /// strings, optional members without a value as `null`.
  ///
  /// - Throws: `EncodingError` (for example for a value that encodes
  ///   nothing), or what the value's own `encode(to:)` throws.
  public static func value(of encodable: some Encodable) throws -> JSONValue {
    try JSONValueEncoder.encode(encodable)
  }

  /// Decodes `type` from `value`, walking the value itself
  /// (``JSONValueDecoder``).
  ///
  /// - Throws: `DecodingError`, which names the coding path.
  public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try JSONValueDecoder.decode(type, from: value)
  }
}
