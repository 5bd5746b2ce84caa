/// The name of one of a daemon's stores, as a `hello` gives it and as the
/// store's directory under the daemon's state directory is named
/// (docs/PROTOCOL.md, "Stores"): 1 to 64 bytes of lower-case ASCII letters,
/// digits, `.`, `_` and `-`, beginning with a letter or a digit and ending
/// with neither `.` nor `-`, and without `..`. So a name is a file name on
/// every file system, never `.`, `..` or hidden, and reads the same in a
/// URL, a shell and a log line.
public struct StoreName: Hashable, Sendable, CustomStringConvertible {
  /// The longest name, in bytes.
  public static let maximumBytes = 64

  public let text: String

  /// `text`, if it is a valid name; otherwise an error that says what a
  /// name may be.
  public init(_ text: String) throws(MessageError) {
    if let problem = Self.problem(with: text) {
      throw MessageError(
        .invalidStore,
        "'\(text.prefix(80))' is not a store name: \(problem); a name is 1 to \(Self.maximumBytes) bytes of a-z, 0-9, "
          + "'.', '_' and '-', begins with a letter or a digit and ends with neither '.' nor '-'")
    }
    self.text = text
  }

  public var description: String { text }

  /// What is wrong with `text` as a name, or nil.
  static func problem(with text: String) -> String? {
    let bytes = Array(text.utf8)
    guard let first = bytes.first, let last = bytes.last else { return "it is empty" }
    guard bytes.count <= maximumBytes else { return "it is \(bytes.count) bytes long" }
    func isLetterOrDigit(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
    for byte in bytes
    where !isLetterOrDigit(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-")
    {
      let shown = byte < 0x80 ? "'\(Character(Unicode.Scalar(byte)))'" : "a byte outside ASCII"
      return "it holds \(shown)"
    }
    guard isLetterOrDigit(first) else { return "it begins with '\(Character(Unicode.Scalar(first)))'" }
    guard last != UInt8(ascii: "."), last != UInt8(ascii: "-") else {
      return "it ends with '\(Character(Unicode.Scalar(last)))'"
    }
    guard !text.contains("..") else { return "it holds '..'" }
    return nil
  }
}
