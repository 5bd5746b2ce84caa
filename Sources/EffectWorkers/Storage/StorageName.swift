/// A namespace or key as a file name: every byte of its UTF-8 outside
/// `[A-Za-z0-9_-]` is written `%XX` (uppercase hex).
///
/// So a name never contains `/`, is never `.` or `..`, and never starts with
/// a dot: the worker's own files (`.tmp-…` temporaries, `.lock`) can never
/// collide with a document, and no key reaches outside its namespace's
/// directory. Decoding is the exact inverse, so `list` returns the keys as
/// they were put.
enum StorageName {
  /// The longest namespace or key, in bytes of UTF-8: encoded, even if every
  /// byte needs `%XX`, it stays within the 255-byte file name limit.
  static let maximumBytes = 80

  /// Why `name` cannot be a namespace or key (`what` names which), or nil.
  static func problem(with name: String, what: String) -> String? {
    if name.isEmpty { return "the \(what) is empty" }
    let count = name.utf8.count
    if count > maximumBytes {
      return "the \(what) is \(count) bytes of UTF-8; at most \(maximumBytes) are allowed"
    }
    return nil
  }

  /// The file name for `name`.
  static func encode(_ name: String) -> String {
    var encoded: [UInt8] = []
    encoded.reserveCapacity(name.utf8.count)
    for byte in name.utf8 {
      if isPlain(byte) {
        encoded.append(byte)
      } else {
        encoded.append(UInt8(ascii: "%"))
        encoded.append(hexDigits[Int(byte >> 4)])
        encoded.append(hexDigits[Int(byte & 0xF)])
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }

  /// The name a file name stands for, or nil when `fileName` is not one that
  /// ``encode(_:)`` writes (a temporary, a file someone put there by hand).
  static func decode(_ fileName: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = fileName.utf8.makeIterator()
    while let byte = iterator.next() {
      if isPlain(byte) {
        bytes.append(byte)
        continue
      }
      guard byte == UInt8(ascii: "%"), let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      let decoded = high << 4 | low
      // Only the canonical form: a plain byte written as %XX is not ours.
      guard !isPlain(decoded) else { return nil }
      bytes.append(decoded)
    }
    guard !bytes.isEmpty, let name = String(validating: bytes, as: UTF8.self) else { return nil }
    return name
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  private static func isPlain(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
      true
    default:
      false
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
