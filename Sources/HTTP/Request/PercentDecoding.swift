/// Decoding of percent-encoded URL parts (RFC 3986 §2.1), for recording
/// requests as a test wants to read them.
public enum PercentDecoding {
  /// `text` with every valid `%XX` escape replaced by its byte and the bytes
  /// read as UTF-8 (invalid sequences become U+FFFD). A `%` not followed by two
  /// hex digits is kept as it is. With `plusIsSpace` (query strings, as HTML
  /// forms write them) `+` decodes to a space; an encoded plus is `%2B`.
  public static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var input = text.utf8[...]
    while let byte = input.popFirst() {
      if byte == UInt8(ascii: "%"), input.count >= 2,
        let high = hexValue(input[input.startIndex]),
        let low = hexValue(input[input.index(after: input.startIndex)])
      {
        bytes.append(high << 4 | low)
        input = input.dropFirst(2)
      } else if plusIsSpace, byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
