/// Builds the query string of a URL from name/value pairs, percent-encoding
/// every byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`).
///
/// Encoding that strictly (rather than the looser set URL builders allow in a
/// query) keeps a search text such as `cats & dogs`, `a+b=c` or `100%` one
/// value: `&`, `=`, `+`, `#` and `%` in it can never be read as separators,
/// spaces or escapes by the server.
enum URLQuery {
  /// `items` as `name=value` pairs joined by `&`, names and values encoded.
  static func string(_ items: KeyValuePairs<String, String>) -> String {
    items.map { "\(percentEncode($0.key))=\(percentEncode($0.value))" }.joined(separator: "&")
  }

  /// `text` with every UTF-8 byte outside the unreserved set written as `%XX`
  /// (uppercase hex): `"café au lait"` becomes `"caf%C3%A9%20au%20lait"`.
  static func percentEncode(_ text: String) -> String {
    var encoded = ""
    encoded.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if isUnreserved(byte) {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        encoded += "%"
        encoded.unicodeScalars.append(hexDigits[Int(byte >> 4)])
        encoded.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
      }
    }
    return encoded
  }

  private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default:
      false
    }
  }
}
